; The Windows installer: per user, no administrator rights, Start-menu and desktop shortcuts
; that start the window with pythonw.exe (no console), an uninstaller in "Apps & features".
; packaging/windows.py runs makensis with VERSION, SOURCE (the app folder), OUTFILE, ICON,
; SIZE_KB and COMPRESSOR defined. The reviewer's data (%LOCALAPPDATA%\recall-reviewer: the
; database, backups, logs) is never touched, neither by installing nor by uninstalling.

; 64-bit, like the Python it installs; Wine without its 32-bit half (Debian's wine64 alone)
; runs it too.
Target amd64-unicode
ManifestDPIAware true
SetCompressor ${COMPRESSOR}
RequestExecutionLevel user

!include "MUI2.nsh"

!define APPNAME "Recall Reviewer"
!define UNINST_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\RecallReviewer"

Name "${APPNAME} ${VERSION}"
OutFile "${OUTFILE}"
InstallDir "$LOCALAPPDATA\Programs\${APPNAME}"
InstallDirRegKey HKCU "${UNINST_KEY}" "InstallLocation"

!define MUI_ICON "${ICON}"
!define MUI_UNICON "${ICON}"
!define MUI_FINISHPAGE_RUN "$INSTDIR\python\pythonw.exe"
!define MUI_FINISHPAGE_RUN_PARAMETERS "-X utf8 -m desktop"
!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH
!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_INSTFILES
!insertmacro MUI_LANGUAGE "Korean"
!insertmacro MUI_LANGUAGE "English"

Section "Install"
  SetShellVarContext current
  ; An older version's Python files must not linger beside the new ones.
  RMDir /r "$INSTDIR\python"
  SetOutPath "$INSTDIR"
  File /r "${SOURCE}\*"
  WriteUninstaller "$INSTDIR\uninstall.exe"

  ; The shortcuts start in Documents, where file dialogs then open.
  SetOutPath "$DOCUMENTS"
  CreateShortCut "$SMPROGRAMS\${APPNAME}.lnk" "$INSTDIR\python\pythonw.exe" "-X utf8 -m desktop" \
    "$INSTDIR\recall-reviewer.ico" 0
  CreateShortCut "$DESKTOP\${APPNAME}.lnk" "$INSTDIR\python\pythonw.exe" "-X utf8 -m desktop" \
    "$INSTDIR\recall-reviewer.ico" 0

  WriteRegStr HKCU "${UNINST_KEY}" "DisplayName" "${APPNAME}"
  WriteRegStr HKCU "${UNINST_KEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKCU "${UNINST_KEY}" "DisplayIcon" "$INSTDIR\recall-reviewer.ico"
  WriteRegStr HKCU "${UNINST_KEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKCU "${UNINST_KEY}" "UninstallString" '"$INSTDIR\uninstall.exe"'
  WriteRegStr HKCU "${UNINST_KEY}" "QuietUninstallString" '"$INSTDIR\uninstall.exe" /S'
  WriteRegDWORD HKCU "${UNINST_KEY}" "EstimatedSize" ${SIZE_KB}
  WriteRegDWORD HKCU "${UNINST_KEY}" "NoModify" 1
  WriteRegDWORD HKCU "${UNINST_KEY}" "NoRepair" 1
SectionEnd

Section "Uninstall"
  SetShellVarContext current
  Delete "$SMPROGRAMS\${APPNAME}.lnk"
  Delete "$DESKTOP\${APPNAME}.lnk"
  ; Only what the installer put there: the folder may have been chosen as one with other files.
  RMDir /r "$INSTDIR\python"
  Delete "$INSTDIR\recall-reviewer.ico"
  Delete "$INSTDIR\recall-reviewer.cmd"
  Delete "$INSTDIR\Recall Reviewer.cmd"
  Delete "$INSTDIR\uninstall.exe"
  RMDir "$INSTDIR"
  DeleteRegKey HKCU "${UNINST_KEY}"
SectionEnd
