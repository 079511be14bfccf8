"""The reviewer window: the only package that imports Qt."""
