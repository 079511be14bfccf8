<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ko_KR" sourcelanguage="en">
<context>
    <name>AgreementModel</name>
    <message>
        <source>Reviewers</source>
        <translation>검수자</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>종류</translation>
    </message>
    <message>
        <source>Items both judged</source>
        <translation>둘 다 판단한 항목</translation>
    </message>
    <message>
        <source>Agreement</source>
        <translation>일치도</translation>
    </message>
    <message>
        <source>Cohen&apos;s κ</source>
        <translation>코헨 κ</translation>
    </message>
    <message>
        <source>Undefined: both reviewers always gave the same single value</source>
        <translation>정의되지 않음: 두 검수자가 항상 같은 한 가지 값만 주었습니다</translation>
    </message>
</context>
<context>
    <name>CandidateModel</name>
    <message>
        <source>Score · candidate · where it comes from</source>
        <translation>유사도 · 후보 · 출처</translation>
    </message>
    <message>
        <source>The score: how alike the two passages are, 0 to 1 (a near copy is near 1)</source>
        <translation>유사도: 두 구절이 얼마나 비슷한지 (0~1, 거의 같은 글은 1에 가까움)</translation>
    </message>
    <message>
        <source>In no system&apos;s top {k}</source>
        <translation>어느 시스템의 상위 {k}에도 없음</translation>
    </message>
    <message>
        <source>In the top {k} of {n} systems: accepting it changes their scores</source>
        <translation>시스템 {n}개의 상위 {k}에 있음: 채택하면 그 점수가 바뀜</translation>
    </message>
    <message>
        <source>In the top {k} of {systems}: accepting it changes their scores</source>
        <translation>{systems}의 상위 {k}에 있음: 채택하면 그 점수가 바뀜</translation>
    </message>
    <message>
        <source>you accepted it (A again withdraws)</source>
        <translation>내가 채택함 (A를 다시 누르면 철회)</translation>
    </message>
</context>
<context>
    <name>CandidatesPanel</name>
    <message>
        <source>Candidate alternatives</source>
        <translation>대체 근거 후보</translation>
    </message>
    <message>
        <source>Select an evidence item to see passages that say the same elsewhere.</source>
        <translation>근거 항목을 선택하면 같은 내용을 다른 곳에서 말하는 구절이 나옵니다.</translation>
    </message>
    <message>
        <source>An item given as a span has no candidates of its own.</source>
        <translation>범위로 주어진 항목에는 자체 후보가 없습니다.</translation>
    </message>
    <message>
        <source>Select a candidate alternative first</source>
        <translation>먼저 대체 근거 후보를 선택하세요</translation>
    </message>
    <message>
        <source>looking for passages like {item}…</source>
        <translation>{item}과(와) 비슷한 구절을 찾는 중…</translation>
    </message>
    <message>
        <source>like {item} elsewhere: {n} (A accepts, H dismisses)</source>
        <translation>다른 곳의 {item} 유사 구절 {n}개 (A 채택, H 제외)</translation>
    </message>
    <message>
        <source>none for {item} (similarity {threshold:.2f} or more)</source>
        <translation>{item}의 후보 없음 (유사도 {threshold:.2f} 이상)</translation>
    </message>
    <message>
        <source>{n} you dismissed are not listed</source>
        <translation>내가 제외한 {n}개는 표시하지 않음</translation>
    </message>
</context>
<context>
    <name>ComparisonPanel</name>
    <message>
        <source>All systems</source>
        <translation>모든 시스템</translation>
    </message>
    <message>
        <source>Every system, not only the two shown in compare mode</source>
        <translation>비교 모드에 보이는 두 시스템만이 아니라 모든 시스템</translation>
    </message>
    <message>
        <source>The comparison is computed when this tab is shown.</source>
        <translation>이 탭을 열면 비교를 계산합니다.</translation>
    </message>
    <message>
        <source>{n} questions; p (Holm) over all {family} tests; ★ under {alpha}.</source>
        <translation>질문 {n}개. p (Holm)는 검정 {family}개 전체에 대해 보정. ★는 {alpha} 미만.</translation>
    </message>
    <message>
        <source>Win/tie/loss needs two systems.</source>
        <translation>승/무/패에는 시스템이 두 개 필요합니다.</translation>
    </message>
    <message>
        <source>No abstention figures (needs scores and abstain questions).</source>
        <translation>답변 보류 지표 없음 (점수가 있는 결과와 보류할 질문이 필요).</translation>
    </message>
    <message>
        <source>No tie at the cutoff changes a value.</source>
        <translation>K 경계의 동점이 값을 바꾸는 곳은 없습니다.</translation>
    </message>
    <message>
        <source>Over the {n} questions with evidence. p: paired randomization test ({perms} sign flips, seed {seed}); p (Holm): Holm–Bonferroni over all {family} tests (every pair of the {systems} systems, measure and K); ★ where it is under {alpha}. AUROC, threshold and accuracy: only where runs carry scores and there are both answerable and abstain questions.</source>
        <translation>정답 근거가 있는 질문 {n}개 기준. p: 대응 무작위화 검정 (부호 뒤집기 {perms}회, 시드 {seed}). p (Holm): 검정 {family}개 전체(시스템 {systems}개의 모든 쌍, 지표, K)에 대한 Holm–Bonferroni 보정값. ★는 그 값이 {alpha} 미만인 곳. AUROC, 임계값, 정확도: 결과에 점수가 있고 답변 가능한 질문과 보류할 질문이 모두 있을 때만.</translation>
    </message>
    <message>
        <source>Union Recall (a perfect fusion), all systems: {values}</source>
        <translation>합집합 Recall (완벽한 융합), 모든 시스템: {values}</translation>
    </message>
    <message>
        <source>of {a} + {b}: {values}</source>
        <translation>{a} + {b}: {values}</translation>
    </message>
    <message>
        <source>Comparing… {p}% ({phase})</source>
        <translation>비교 계산 중… {p}% ({phase})</translation>
    </message>
    <message>
        <source>The comparison could not be computed: {error}</source>
        <translation>비교를 계산하지 못했습니다: {error}</translation>
    </message>
</context>
<context>
    <name>ComparisonRunner</name>
    <message>
        <source>Blind mode: the comparison is hidden until you leave it.</source>
        <translation>블라인드 모드: 모드를 끌 때까지 비교를 숨깁니다.</translation>
    </message>
    <message>
        <source>Comparing…</source>
        <translation>비교 계산 중…</translation>
    </message>
</context>
<context>
    <name>CorpusSearchDialog</name>
    <message>
        <source>Search the corpus</source>
        <translation>말뭉치 검색</translation>
    </message>
    <message>
        <source>All chunkings</source>
        <translation>모든 청킹</translation>
    </message>
    <message>
        <source>Search the passages of this chunking</source>
        <translation>이 청킹의 문단에서 검색</translation>
    </message>
    <message>
        <source>Words that must all appear (Enter searches now)</source>
        <translation>모두 들어가야 할 낱말 (Enter: 바로 검색)</translation>
    </message>
    <message>
        <source>Add as core</source>
        <translation>핵심 근거로 추가</translation>
    </message>
    <message>
        <source>Add as supporting</source>
        <translation>보조 근거로 추가</translation>
    </message>
    <message>
        <source>Alternative for</source>
        <translation>대체 근거 대상</translation>
    </message>
    <message>
        <source>Add as alternative</source>
        <translation>대체 근거로 추가</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>닫기</translation>
    </message>
    <message>
        <source>Added {passage} as {role} evidence</source>
        <translation>{passage}을(를) {role} 근거로 추가했습니다</translation>
    </message>
    <message>
        <source>Searching…</source>
        <translation>검색 중…</translation>
    </message>
    <message>
        <source>{n} passages</source>
        <translation>{n}개 문단</translation>
    </message>
    <message>
        <source>Added {passage} as an alternative for {item}</source>
        <translation>{passage}을(를) {item}의 대체 근거로 추가했습니다</translation>
    </message>
    <message>
        <source>Corpus order</source>
        <translation>코퍼스 순서</translation>
    </message>
    <message>
        <source>List the passages in corpus order, not best first</source>
        <translation>가장 잘 맞는 순서가 아니라 코퍼스 순서로 보여 줍니다</translation>
    </message>
    <message>
        <source>More like this</source>
        <translation>비슷한 문단</translation>
    </message>
    <message>
        <source>The passages most like the selected one</source>
        <translation>선택한 문단과 가장 비슷한 문단들</translation>
    </message>
    <message>
        <source>Every word must appear; the best matches come first.</source>
        <translation>모든 단어가 들어 있는 문단을 가장 잘 맞는 순서로 보여 줍니다.</translation>
    </message>
    <message>
        <source>{n} passages most like {passage}</source>
        <translation>{passage}와 가장 비슷한 문단 {n}개</translation>
    </message>
</context>
<context>
    <name>DisputeModel</name>
    <message>
        <source>Disputed</source>
        <translation>이견 대상</translation>
    </message>
</context>
<context>
    <name>DocumentText</name>
    <message>
        <source>▲ earlier text of {document}</source>
        <translation>▲ {document}의 앞부분</translation>
    </message>
    <message>
        <source>▼ later text of {document}</source>
        <translation>▼ {document}의 뒷부분</translation>
    </message>
</context>
<context>
    <name>EvidenceModel</name>
    <message>
        <source>Text</source>
        <translation>본문</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>역할</translation>
    </message>
    <message>
        <source>Passage</source>
        <translation>문단</translation>
    </message>
    <message>
        <source>Alternatives</source>
        <translation>대체 근거</translation>
    </message>
    <message>
        <source>found at {rank} via {passage}</source>
        <translation>{rank}위 (대체 {passage})</translation>
    </message>
    <message>
        <source>found at {rank}</source>
        <translation>{rank}위에서 찾음</translation>
    </message>
    <message>
        <source>missed (found at {rank})</source>
        <translation>놓침 ({rank}위)</translation>
    </message>
    <message>
        <source>missed (not retrieved)</source>
        <translation>놓침 (없음)</translation>
    </message>
    <message>
        <source>Imported: {role}</source>
        <translation>가져온 값: {role}</translation>
    </message>
    <message>
        <source>◆ Only {system} finds this item in its top {k} among all systems</source>
        <translation>◆ 모든 시스템 중 {system}만 상위 {k} 안에서 이 근거를 찾음</translation>
    </message>
    <message>
        <source>Only {system} finds this item in its top {k}</source>
        <translation>{system}만 상위 {k}개 안에서 이 항목을 찾습니다</translation>
    </message>
    <message>
        <source>{system} misses this item; the other system finds it</source>
        <translation>{system}은(는) 이 항목을 놓치고, 다른 시스템은 찾습니다</translation>
    </message>
    <message>
        <source>A question mark: proposed, not in force yet</source>
        <translation>물음표: 제안되었지만 아직 반영되지 않음</translation>
    </message>
    <message>
        <source>{share} covered</source>
        <translation>{share} 덮음</translation>
    </message>
</context>
<context>
    <name>EvidencePanel</name>
    <message>
        <source>&lt;b&gt;Gold evidence&lt;/b&gt;</source>
        <translation>&lt;b&gt;정답 근거&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Open disagreements&lt;/b&gt;</source>
        <translation>&lt;b&gt;남은 이견&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Ctrl+1, Ctrl+2 … write an adjudication with that reviewer&apos;s value.</source>
        <translation>Ctrl+1, Ctrl+2 … 그 검수자의 값으로 판정을 기록합니다.</translation>
    </message>
    <message>
        <source>No evidence items for this question: it is reported apart, not averaged in.</source>
        <translation>이 질문에는 정답 근거가 없습니다. 평균에 넣지 않고 따로 보고합니다.</translation>
    </message>
    <message>
        <source>No evidence: this question should be abstained on (reported apart, not averaged in).</source>
        <translation>정답 근거 없음: 답변을 보류해야 할 질문입니다 (평균에 넣지 않고 따로 보고).</translation>
    </message>
    <message>
        <source>{missed} of {n} items missed at K = {k} by {system}.</source>
        <translation>{system}: K = {k}에서 {n}개 중 {missed}개 놓침.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Notes&lt;/b&gt;</source>
        <translation>&lt;b&gt;메모&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Take {name}&apos;s value (Ctrl+{n})</source>
        <translation>{name}의 값 채택 (Ctrl+{n})</translation>
    </message>
</context>
<context>
    <name>FolderWarning</name>
    <message>
        <source>{path} is on a network folder. SQLite cannot keep a database safe over a network share (SMB): keep it in a local folder, and share judgements by exporting them (File → Export my judgements) and merging.</source>
        <translation>{path}은(는) 네트워크 폴더에 있습니다. SQLite 데이터베이스는 네트워크 공유(SMB)에서 안전하게 유지되지 않습니다. 로컬 폴더에 두고, 판단 기록은 내보내서(파일 → 내 판단 기록 내보내기) 병합하는 방식으로 공유하세요.</translation>
    </message>
    <message>
        <source>{path} is in {name}, a folder a sync client copies. It can copy or replace the database while it is being written and damage it: keep it in a local folder, and share judgements by exporting them (File → Export my judgements) and merging.</source>
        <translation>{path}은(는) 동기화 프로그램이 복사하는 폴더 {name} 안에 있습니다. 동기화 프로그램이 기록 중인 데이터베이스를 복사하거나 바꿔치기하여 손상시킬 수 있습니다. 로컬 폴더에 두고, 판단 기록은 내보내서(파일 → 내 판단 기록 내보내기) 병합하는 방식으로 공유하세요.</translation>
    </message>
    <message>
        <source>Database in a shared folder</source>
        <translation>공유 폴더의 데이터베이스</translation>
    </message>
</context>
<context>
    <name>ImportDialog</name>
    <message>
        <source>Import {kind}</source>
        <translation>{kind} 가져오기</translation>
    </message>
    <message>
        <source>File</source>
        <translation>파일</translation>
    </message>
    <message>
        <source>From the extension ({fmt})</source>
        <translation>확장자로 판단 ({fmt})</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>형식</translation>
    </message>
    <message>
        <source>This file is not UTF-8; it looks like {encoding}.</source>
        <translation>이 파일은 UTF-8이 아니며 {encoding}(으)로 보입니다.</translation>
    </message>
    <message>
        <source>This file is not UTF-8; choose its encoding.</source>
        <translation>이 파일은 UTF-8이 아닙니다. 인코딩을 고르세요.</translation>
    </message>
    <message>
        <source>Encoding</source>
        <translation>인코딩</translation>
    </message>
    <message>
        <source>for example 문단, tokens, 조</source>
        <translation>예: 문단, 토큰, 조</translation>
    </message>
    <message>
        <source>not recorded</source>
        <translation>기록 안 함</translation>
    </message>
    <message>
        <source>Replace the loaded corpus (removes the imported gold and runs)</source>
        <translation>불러온 말뭉치 바꾸기 (가져온 정답 근거와 검색 결과가 지워집니다)</translation>
    </message>
    <message>
        <source>System name</source>
        <translation>시스템 이름</translation>
    </message>
    <message>
        <source>Corpus name</source>
        <translation>말뭉치 이름</translation>
    </message>
    <message>
        <source>Chunk unit</source>
        <translation>청크 단위</translation>
    </message>
    <message>
        <source>Chunk size</source>
        <translation>청크 크기</translation>
    </message>
    <message>
        <source>Overlap</source>
        <translation>겹침</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>가져오기</translation>
    </message>
    <message>
        <source>corpus</source>
        <translation>말뭉치</translation>
    </message>
    <message>
        <source>questions</source>
        <translation>질문</translation>
    </message>
    <message>
        <source>gold</source>
        <translation>정답 근거</translation>
    </message>
    <message>
        <source>run</source>
        <translation>검색 결과</translation>
    </message>
    <message>
        <source>judgements</source>
        <translation>판단 기록</translation>
    </message>
    <message>
        <source>A machine&apos;s judgements (an LLM judge): compared, never counted in the gold</source>
        <translation>기계(LLM 판정자)의 판정: 비교만 하고 정답에는 반영하지 않음</translation>
    </message>
</context>
<context>
    <name>JournalWarning</name>
    <message>
        <source>Judgement journal not written: judgements are only in the database</source>
        <translation>판단 저널을 쓰지 못함: 판단은 데이터베이스에만 있습니다</translation>
    </message>
    <message>
        <source>The judgement journal beside the database could not be written:
{problem}</source>
        <translation>데이터베이스 옆의 판단 저널을 쓰지 못했습니다:
{problem}</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Characters of context at which runs with spans are also scored (0: none):</source>
        <translation>스팬이 있는 실행을 추가로 채점할 컨텍스트 글자 수 (0: 없음):</translation>
    </message>
    <message>
        <source>Context budget</source>
        <translation>컨텍스트 예산</translation>
    </message>
    <message>
        <source>Recall Reviewer {version}: review retrieval runs against gold evidence and report Recall@K.</source>
        <translation>Recall Reviewer {version}: 검색 결과를 정답 근거와 대조해 검수하고 Recall@K를 보고합니다.</translation>
    </message>
    <message>
        <source>About Recall Reviewer</source>
        <translation>Recall Reviewer 정보</translation>
    </message>
    <message>
        <source>The language changes the next time the window opens.</source>
        <translation>언어는 다음에 창을 열 때 바뀝니다.</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>언어</translation>
    </message>
    <message>
        <source>imported: abstain</source>
        <translation>가져온 값: 보류</translation>
    </message>
    <message>
        <source>imported: answerable</source>
        <translation>가져온 값: 답변 가능</translation>
    </message>
    <message>
        <source>to abstain on</source>
        <translation>답변 보류</translation>
    </message>
    <message>
        <source>answerable</source>
        <translation>답변 가능</translation>
    </message>
    <message>
        <source>{name} is marked as a machine: their lines no longer count</source>
        <translation>{name}을(를) 기계로 표시했습니다: 그 판정은 더 이상 정답에 반영되지 않습니다</translation>
    </message>
    <message>
        <source>{name} is a person again: their lines count</source>
        <translation>{name}을(를) 다시 사람으로 표시했습니다: 그 판정이 정답에 반영됩니다</translation>
    </message>
    <message>
        <source>Marking {name}…</source>
        <translation>{name} 표시 중…</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>언어(&amp;L)</translation>
    </message>
    <message>
        <source>Cannot open the database</source>
        <translation>데이터베이스를 열 수 없습니다</translation>
    </message>
    <message>
        <source>No reviewer name yet: the first judging key asks for it</source>
        <translation>검수자 이름이 아직 없습니다: 처음 판단 키를 누를 때 이름을 묻습니다</translation>
    </message>
    <message>
        <source>blind mode</source>
        <translation>블라인드 모드</translation>
    </message>
    <message>
        <source>Reviewer: {name}</source>
        <translation>검수자: {name}</translation>
    </message>
    <message>
        <source>Updating metrics…</source>
        <translation>지표 계산 중…</translation>
    </message>
    <message>
        <source>The judgement was not saved</source>
        <translation>판단이 저장되지 않았습니다</translation>
    </message>
    <message>
        <source>Your name as a reviewer, written with every judgement. This judgement is saved once you give it:</source>
        <translation>검수자 이름 (모든 판단에 함께 기록됩니다). 이름을 입력하면 방금 누른 판단이 저장됩니다:</translation>
    </message>
    <message>
        <source>Select an evidence item first</source>
        <translation>먼저 정답 근거 항목을 고르세요</translation>
    </message>
    <message>
        <source>You already marked {passage} {role}</source>
        <translation>{passage}은(는) 이미 {role}(으)로 표시했습니다</translation>
    </message>
    <message>
        <source>Select an evidence item and a retrieved passage first</source>
        <translation>먼저 정답 근거 항목과 검색된 문단을 고르세요</translation>
    </message>
    <message>
        <source>{passage} is itself an evidence item</source>
        <translation>{passage}은(는) 그 자체로 정답 근거 항목입니다</translation>
    </message>
    <message>
        <source>{passage} is an evidence item&apos;s primary passage and stays evidence; mark its role instead</source>
        <translation>{passage}은(는) 정답 근거 항목의 기본 문단이라 근거로 남습니다. 대신 역할을 표시하세요</translation>
    </message>
    <message>
        <source>Already recorded</source>
        <translation>이미 기록했습니다</translation>
    </message>
    <message>
        <source>Note on evidence item {passage} of {question} ({system})</source>
        <translation>{question}의 정답 근거 {passage}에 대한 메모 ({system})</translation>
    </message>
    <message>
        <source>Note on question {question}</source>
        <translation>질문 {question}에 대한 메모</translation>
    </message>
    <message>
        <source>Search failed</source>
        <translation>검색하지 못했습니다</translation>
    </message>
    <message>
        <source>No open disagreement on this question</source>
        <translation>이 질문에는 남은 이견이 없습니다</translation>
    </message>
    <message>
        <source>Undone</source>
        <translation>되돌림</translation>
    </message>
    <message>
        <source>Redone</source>
        <translation>다시 함</translation>
    </message>
    <message>
        <source>Nothing to undo</source>
        <translation>되돌릴 것이 없습니다</translation>
    </message>
    <message>
        <source>{kind} {passage} → {value}</source>
        <translation>{kind} {passage} → {value}</translation>
    </message>
    <message>
        <source>Saved: {lines} ({question})</source>
        <translation>저장함: {lines} ({question})</translation>
    </message>
    <message>
        <source>Nothing to redo</source>
        <translation>다시 할 것이 없습니다</translation>
    </message>
    <message>
        <source>No other question has a miss at K = {k}</source>
        <translation>K = {k}에서 누락이 있는 다른 질문이 없습니다</translation>
    </message>
    <message>
        <source>An operation is running</source>
        <translation>작업이 진행 중입니다</translation>
    </message>
    <message>
        <source>Cancel it and close? A cancelled import changes nothing.</source>
        <translation>작업을 취소하고 닫을까요? 취소된 가져오기는 아무것도 바꾸지 않습니다.</translation>
    </message>
    <message>
        <source>Opened read-only</source>
        <translation>읽기 전용으로 열림</translation>
    </message>
    <message>
        <source>{path} is open in another Recall Reviewer window. This window shows it read-only, and follows the changes made there.</source>
        <translation>{path} 파일이 다른 Recall Reviewer 창에서 열려 있습니다. 이 창은 읽기 전용으로 보여 주며, 그 창에서 바뀐 내용을 따라갑니다.</translation>
    </message>
    <message>
        <source>Read-only: another window has this database open</source>
        <translation>읽기 전용: 다른 창이 이 데이터베이스를 열고 있습니다</translation>
    </message>
    <message>
        <source>no reviewer named</source>
        <translation>검수자 이름 없음</translation>
    </message>
    <message>
        <source>read-only</source>
        <translation>읽기 전용</translation>
    </message>
    <message>
        <source>The database was changed elsewhere: reloaded</source>
        <translation>다른 곳에서 데이터베이스가 바뀌어 다시 읽었습니다</translation>
    </message>
    <message>
        <source>Reviewer</source>
        <translation>검수자</translation>
    </message>
    <message>
        <source>Your name as a reviewer:</source>
        <translation>검수자 이름:</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
    <message>
        <source>Nothing was changed</source>
        <translation>아무것도 바뀌지 않았습니다</translation>
    </message>
    <message>
        <source>Something went wrong; nothing was changed</source>
        <translation>문제가 생겼습니다. 아무것도 바뀌지 않았습니다</translation>
    </message>
    <message>
        <source>Cancelled; nothing was changed</source>
        <translation>취소했습니다. 아무것도 바뀌지 않았습니다</translation>
    </message>
    <message>
        <source>Saved, but something went wrong afterwards</source>
        <translation>저장되었지만 그 뒤에 문제가 생겼습니다</translation>
    </message>
    <message>
        <source>The changes were saved. Then: {error}</source>
        <translation>변경 내용은 저장되었습니다. 그 뒤에: {error}</translation>
    </message>
    <message>
        <source>Import {kind}</source>
        <translation>{kind} 가져오기</translation>
    </message>
    <message>
        <source>{kind} files ({patterns})</source>
        <translation>{kind} 파일 ({patterns})</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>모든 파일 (*)</translation>
    </message>
    <message>
        <source>Importing {file}…</source>
        <translation>{file} 가져오는 중…</translation>
    </message>
    <message>
        <source>Import finished: {kind}, {n} rows from {file}.</source>
        <translation>가져오기 완료: {kind}, {file}에서 {n}건.</translation>
    </message>
    <message>
        <source>Imported</source>
        <translation>가져옴</translation>
    </message>
    <message>
        <source>Sample project loaded</source>
        <translation>예제 프로젝트를 불러왔습니다</translation>
    </message>
    <message>
        <source>Loading the sample project…</source>
        <translation>예제 프로젝트 불러오는 중…</translation>
    </message>
    <message>
        <source>New database</source>
        <translation>새 데이터베이스</translation>
    </message>
    <message>
        <source>Open database</source>
        <translation>데이터베이스 열기</translation>
    </message>
    <message>
        <source>Merge another reviewer&apos;s database</source>
        <translation>다른 검수자의 데이터베이스 합치기</translation>
    </message>
    <message>
        <source>Merged</source>
        <translation>합침</translation>
    </message>
    <message>
        <source>Details (as the command line prints them):</source>
        <translation>자세한 내용 (명령줄 출력 그대로):</translation>
    </message>
    <message>
        <source>Merging {file}…</source>
        <translation>{file} 합치는 중…</translation>
    </message>
    <message>
        <source>Merge finished: {n} judgements added from {file}.</source>
        <translation>합치기 완료: {file}에서 판단 {n}건 추가.</translation>
    </message>
    <message>
        <source>Export report</source>
        <translation>보고서 내보내기</translation>
    </message>
    <message>
        <source>The Excel report is not part of this build (desktop.report is missing).</source>
        <translation>이 빌드에는 엑셀 보고서 기능이 없습니다 (desktop.report 없음).</translation>
    </message>
    <message>
        <source>The Excel report is not available: {error}</source>
        <translation>엑셀 보고서를 쓸 수 없습니다: {error}</translation>
    </message>
    <message>
        <source>Report written</source>
        <translation>보고서를 썼습니다</translation>
    </message>
    <message>
        <source>Writing {file}…</source>
        <translation>{file} 쓰는 중…</translation>
    </message>
    <message>
        <source>The report is saved:
{file}</source>
        <translation>보고서를 저장했습니다:
{file}</translation>
    </message>
    <message>
        <source>Export my judgements</source>
        <translation>내 판단 기록 내보내기</translation>
    </message>
    <message>
        <source>Exported</source>
        <translation>내보냄</translation>
    </message>
    <message>
        <source>Wrote {n} judgements to {path}</source>
        <translation>판단 {n}건을 {path}에 썼습니다</translation>
    </message>
    <message>
        <source>Exporting…</source>
        <translation>내보내는 중…</translation>
    </message>
    <message>
        <source>Pick a passage first: in the pool, a ranking or the reader</source>
        <translation>먼저 문단을 고르세요: 판정 대기, 순위 또는 본문 보기에서</translation>
    </message>
    <message>
        <source>Why drop {passage} from {question}? The reason is kept as a note.</source>
        <translation>{question}에서 {passage}을(를) 빼는 이유는? 이유는 메모로 남습니다.</translation>
    </message>
    <message>
        <source>No other question has unjudged passages at depth {depth}</source>
        <translation>깊이 {depth}에서 판정할 문단이 남은 다른 질문이 없습니다</translation>
    </message>
    <message>
        <source>This question&apos;s pool is judged. U: next question with unjudged passages</source>
        <translation>이 질문의 판정 대기 문단을 모두 판정했습니다. U: 판정할 문단이 남은 다음 질문</translation>
    </message>
    <message>
        <source>Import a GraphRAG or LightRAG folder</source>
        <translation>GraphRAG 또는 LightRAG 폴더 가져오기</translation>
    </message>
    <message>
        <source>Select a passage a machine judged in the unjudged pool first</source>
        <translation>먼저 미판정 목록에서 기계가 판정한 문단을 고르세요</translation>
    </message>
    <message>
        <source>{passage} is of another chunking: it is judged by its span (E or R adds it as evidence, A as an alternative of the selected item)</source>
        <translation>{passage}는 다른 청킹의 문단입니다: 스팬으로 판정합니다 (E 또는 R은 근거로 추가, A는 선택한 항목의 대체 근거로 추가)</translation>
    </message>
    <message>
        <source>{passage} is of another chunking and has no span in a document: it cannot be judged against this gold</source>
        <translation>{passage}는 다른 청킹의 문단이며 문서 안의 스팬이 없습니다: 이 정답 근거에 대해 판정할 수 없습니다</translation>
    </message>
</context>
<context>
    <name>MetricsDock</name>
    <message>
        <source>Machines (checked):</source>
        <translation>기계 (체크):</translation>
    </message>
    <message>
        <source>Metrics</source>
        <translation>지표</translation>
    </message>
    <message>
        <source>Agreement</source>
        <translation>일치도</translation>
    </message>
    <message>
        <source>Comparison</source>
        <translation>비교</translation>
    </message>
    <message>
        <source>&amp;Metrics</source>
        <translation>지표(&amp;M)</translation>
    </message>
    <message>
        <source>Recall@K, K = 1 … depth</source>
        <translation>Recall@K, K = 1 … 최대 깊이</translation>
    </message>
    <message>
        <source>No runs yet</source>
        <translation>검색 결과가 아직 없습니다</translation>
    </message>
    <message>
        <source>{shown} of {n} systems in view: scroll the table, or press T for the tall view</source>
        <translation>시스템 {n}개 중 {shown}개 보임: 표를 스크롤하거나 T로 크게 보기</translation>
    </message>
    <message>
        <source>Policy: a judgement counts at once while it is the only reviewer&apos;s in the database (marked “single”); with two or more reviewers a change counts when everyone who judged it agrees, or after an adjudication. Until then the imported gold stands.</source>
        <translation>원칙: 데이터베이스에 검수자가 한 명뿐이면 그 판단이 바로 반영됩니다(“1인”으로 표시). 검수자가 두 명 이상이면 판단한 모든 검수자가 일치하거나 판정이 내려졌을 때 반영되고, 그 전까지는 가져온 정답 근거가 유지됩니다.</translation>
    </message>
    <message>
        <source>Blind mode: agreement is hidden until you leave it.</source>
        <translation>블라인드 모드: 모드를 끌 때까지 일치도를 숨깁니다.</translation>
    </message>
    <message>
        <source>Reviewers: {names}. Open disagreements: {n}.</source>
        <translation>검수자: {names}. 남은 이견: {n}.</translation>
    </message>
    <message>
        <source>Mean over {n} questions with evidence; {m} without evidence are reported apart.</source>
        <translation>정답 근거가 있는 질문 {n}개의 평균. 근거가 없는 질문 {m}개는 따로 보고합니다.</translation>
    </message>
    <message>
        <source>Blind mode: only your own judgements are applied.</source>
        <translation>블라인드 모드: 내 판단만 반영했습니다.</translation>
    </message>
    <message>
        <source>Updating metrics…</source>
        <translation>지표 계산 중…</translation>
    </message>
    <message>
        <source>{n} of {m} systems have under {share} of their top K judged (amber in the table): their numbers may still move as the pool is judged</source>
        <translation>시스템 {m}개 중 {n}개는 상위 K 중 판정된 비율이 {share} 미만입니다(표의 주황색 값): 풀을 판정하면 수치가 아직 바뀔 수 있습니다</translation>
    </message>
    <message>
        <source>Numbers may still move as the pool is judged (under {share} of the top K judged): {parts}</source>
        <translation>풀을 판정하면 수치가 아직 바뀔 수 있습니다 (상위 K 중 판정된 비율 {share} 미만): {parts}</translation>
    </message>
    <message>
        <source>Updating metrics… {p}%</source>
        <translation>지표 계산 중… {p}%</translation>
    </message>
    <message>
        <source>Metrics could not be computed: {error}</source>
        <translation>지표를 계산하지 못했습니다: {error}</translation>
    </message>
    <message>
        <source>Coverage θ = {theta:g}</source>
        <translation>커버리지 θ = {theta:g}</translation>
    </message>
    <message>
        <source>found by coverage (another chunking): {names}</source>
        <translation>커버리지로 찾음 (다른 청킹): {names}</translation>
    </message>
</context>
<context>
    <name>MetricsModel</name>
    <message>
        <source>System</source>
        <translation>시스템</translation>
    </message>
    <message>
        <source>Questions with evidence, averaged over</source>
        <translation>평균에 들어간, 정답 근거가 있는 질문 수</translation>
    </message>
</context>
<context>
    <name>NoteDialog</name>
    <message>
        <source>Note</source>
        <translation>메모</translation>
    </message>
    <message>
        <source>An empty note withdraws your earlier note.</source>
        <translation>메모를 비우면 앞서 쓴 메모를 거둡니다.</translation>
    </message>
</context>
<context>
    <name>PairsModel</name>
    <message>
        <source>A</source>
        <translation>A</translation>
    </message>
    <message>
        <source>B</source>
        <translation>B</translation>
    </message>
    <message>
        <source>Measure</source>
        <translation>지표</translation>
    </message>
    <message>
        <source>Wins</source>
        <translation>승</translation>
    </message>
    <message>
        <source>Questions where A scores higher than B</source>
        <translation>A가 B보다 높은 질문</translation>
    </message>
    <message>
        <source>Ties</source>
        <translation>무</translation>
    </message>
    <message>
        <source>Questions where A and B score the same</source>
        <translation>A와 B가 같은 질문</translation>
    </message>
    <message>
        <source>Losses</source>
        <translation>패</translation>
    </message>
    <message>
        <source>Questions where A scores lower than B</source>
        <translation>A가 B보다 낮은 질문</translation>
    </message>
    <message>
        <source>Paired randomization test (two-sided)</source>
        <translation>대응 무작위화 검정 (양측)</translation>
    </message>
    <message>
        <source>p (Holm)</source>
        <translation>p (Holm)</translation>
    </message>
    <message>
        <source>Holm–Bonferroni adjusted over the whole family</source>
        <translation>검정 전체에 대한 Holm–Bonferroni 보정</translation>
    </message>
    <message>
        <source>★: adjusted p under {alpha}</source>
        <translation>★: 보정된 p가 {alpha} 미만</translation>
    </message>
</context>
<context>
    <name>PassageReader</name>
    <message>
        <source>What the graph retriever&apos;s context held besides its text</source>
        <translation>그래프 검색기의 컨텍스트가 본문 외에 담은 것</translation>
    </message>
    <message>
        <source>&lt;b&gt;{passage}&lt;/b&gt; {source} — whole passage, its neighbours greyed</source>
        <translation>&lt;b&gt;{passage}&lt;/b&gt; {source} — 문단 전문 (앞뒤 문단은 회색)</translation>
    </message>
    <message>
        <source>Cannot read the passage: {error}</source>
        <translation>문단을 읽을 수 없습니다: {error}</translation>
    </message>
    <message>
        <source>&lt;b&gt;{passage}&lt;/b&gt; {source} — in document {document} ({start}–{end} of {n} characters): gold spans underlined, the part covering them shaded</source>
        <translation>&lt;b&gt;{passage}&lt;/b&gt; {source} — 문서 {document} 안 ({n}자 중 {start}–{end}): 정답 스팬은 밑줄, 그것을 덮는 부분은 음영</translation>
    </message>
    <message>
        <source>entities</source>
        <translation>엔티티</translation>
    </message>
    <message>
        <source>relationships</source>
        <translation>관계</translation>
    </message>
    <message>
        <source>reports</source>
        <translation>커뮤니티 보고서</translation>
    </message>
</context>
<context>
    <name>PassageTabs</name>
    <message>
        <source>Rankings</source>
        <translation>순위</translation>
    </message>
    <message>
        <source>Unjudged pool</source>
        <translation>판정 대기</translation>
    </message>
    <message>
        <source>Unjudged pool ({n})</source>
        <translation>판정 대기 ({n})</translation>
    </message>
</context>
<context>
    <name>PoolModel</name>
    <message>
        <source>Question</source>
        <translation>질문</translation>
    </message>
    <message>
        <source>Passage</source>
        <translation>문단</translation>
    </message>
    <message>
        <source>Systems</source>
        <translation>찾은 수</translation>
    </message>
    <message>
        <source>Best</source>
        <translation>최고</translation>
    </message>
    <message>
        <source>Retrieved by</source>
        <translation>찾은 시스템</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>본문</translation>
    </message>
    <message>
        <source>How many systems have the passage in their top D</source>
        <translation>이 문단을 상위 D 안에 둔 시스템 수</translation>
    </message>
    <message>
        <source>Its best rank in any system</source>
        <translation>시스템들 가운데 가장 높은 순위</translation>
    </message>
    <message>
        <source>Hidden in blind mode</source>
        <translation>블라인드 모드에서는 숨김</translation>
    </message>
    <message>
        <source>≈ A candidate alternative of {items}</source>
        <translation>≈ {items}의 대체 근거 후보</translation>
    </message>
    <message>
        <source>Machine says</source>
        <translation>기계 판정</translation>
    </message>
    <message>
        <source>A machine&apos;s judgement: G makes it your own</source>
        <translation>기계의 판정: G를 누르면 내 판정으로 기록</translation>
    </message>
    <message>
        <source>not evidence</source>
        <translation>근거 아님</translation>
    </message>
    <message>
        <source>evidence</source>
        <translation>근거</translation>
    </message>
</context>
<context>
    <name>PoolPanel</name>
    <message>
        <source>Across questions</source>
        <translation>질문 넘어서</translation>
    </message>
    <message>
        <source>Go on into the next questions&apos; pools, in list order</source>
        <translation>목록 순서로 다음 질문들의 판정 대기 문단까지 이어서 보기</translation>
    </message>
    <message>
        <source>My own order</source>
        <translation>내 순서</translation>
    </message>
    <message>
        <source>A shuffled order fixed for you, against position bias (else: most systems first, then best rank)</source>
        <translation>위치 편향을 막도록 검수자마다 고정된 뒤섞인 순서 (끄면: 많은 시스템이 찾은 문단 먼저, 다음은 높은 순위)</translation>
    </message>
    <message>
        <source>Depth </source>
        <translation>깊이 </translation>
    </message>
    <message>
        <source>The pool: every passage in some system&apos;s top D</source>
        <translation>판정 대기: 어느 시스템이든 상위 D 안에 둔 모든 문단</translation>
    </message>
    <message>
        <source>Next question with unjudged passages</source>
        <translation>판정할 문단이 남은 다음 질문</translation>
    </message>
    <message>
        <source>&lt;b&gt;Unjudged pool&lt;/b&gt; of {question}: {n} left (top {depth})</source>
        <translation>{question}의 &lt;b&gt;판정 대기&lt;/b&gt;: {n}개 남음 (상위 {depth})</translation>
    </message>
    <message>
        <source>Judge each passage: E core, R supporting, A alternative, X not evidence</source>
        <translation>문단마다 판정하세요: E 핵심, R 보조, A 대체 근거, X 근거 아님</translation>
    </message>
    <message>
        <source>Every passage in the systems&apos; top {depth} for this question is judged.</source>
        <translation>이 질문에서 시스템들의 상위 {depth} 안 문단을 모두 판정했습니다.</translation>
    </message>
</context>
<context>
    <name>QFileDialog</name>
    <message>
        <source>&amp;Look in:</source>
        <translation>다음에서 찾기(&amp;L):</translation>
    </message>
    <message>
        <source>Files of &amp;type:</source>
        <translation>파일 형식(&amp;T):</translation>
    </message>
</context>
<context>
    <name>QuestionListModel</name>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>질문</translation>
    </message>
    <message>
        <source>Ans.</source>
        <translation>답변</translation>
    </message>
    <message>
        <source>Pool</source>
        <translation>대기</translation>
    </message>
    <message>
        <source>Answerable, or to be abstained on</source>
        <translation>답변 가능 여부 (보류: 답변 보류)</translation>
    </message>
    <message>
        <source>Your review: untouched, in progress (•) or done (√: answerability settled and every evidence item has a role)</source>
        <translation>내 검수 상태: 손대지 않음, 진행 중(•), 완료(√: 답변 가능 여부를 정했고 모든 정답 근거에 역할이 있음)</translation>
    </message>
    <message>
        <source>Evidence items the chosen system finds in its top {k}, of all items</source>
        <translation>고른 시스템이 상위 {k}개 안에서 찾은 정답 근거 수 / 전체 수</translation>
    </message>
    <message>
        <source>Open disagreements between reviewers</source>
        <translation>검수자 사이의 남은 이견</translation>
    </message>
    <message>
        <source>Unjudged passages in the systems&apos; top D for this question (the pool)</source>
        <translation>이 질문에서 시스템들의 상위 D 안에 있는, 아직 판정하지 않은 문단 수 (판정 대기)</translation>
    </message>
    <message>
        <source>{n} open disagreements</source>
        <translation>남은 이견 {n}건</translation>
    </message>
    <message>
        <source>{n} unjudged passages in the pool</source>
        <translation>판정 대기 문단 {n}개</translation>
    </message>
    <message>
        <source>abstain</source>
        <translation>보류</translation>
    </message>
</context>
<context>
    <name>QuestionListPanel</name>
    <message>
        <source>&lt;b&gt;Questions&lt;/b&gt;</source>
        <translation>&lt;b&gt;질문&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Search questions…</source>
        <translation>질문 검색…</translation>
    </message>
    <message>
        <source>Misses at K</source>
        <translation>누락만</translation>
    </message>
    <message>
        <source>Not done</source>
        <translation>미검수</translation>
    </message>
    <message>
        <source>Disagreements</source>
        <translation>이견</translation>
    </message>
    <message>
        <source>Unjudged left</source>
        <translation>판정 대기 남음</translation>
    </message>
    <message>
        <source>Questions whose pool has unjudged passages</source>
        <translation>판정할 문단이 남은 질문</translation>
    </message>
    <message>
        <source>All questions</source>
        <translation>모든 질문</translation>
    </message>
    <message>
        <source>Answerable</source>
        <translation>답변 가능</translation>
    </message>
    <message>
        <source>To abstain on</source>
        <translation>답변 보류</translation>
    </message>
    <message>
        <source>Hidden in blind mode</source>
        <translation>블라인드 모드에서는 숨김</translation>
    </message>
    <message>
        <source>{shown} of {total} questions</source>
        <translation>질문 {total}개 중 {shown}개</translation>
    </message>
</context>
<context>
    <name>RankingModel</name>
    <message>
        <source>Rank</source>
        <translation>순위</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>점수</translation>
    </message>
    <message>
        <source>Passage</source>
        <translation>문단</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>본문</translation>
    </message>
    <message>
        <source>Evidence only {system} finds in its top {k}: no other system does</source>
        <translation>{system}만 상위 {k} 안에서 찾은 근거 (다른 시스템은 못 찾음)</translation>
    </message>
    <message>
        <source>Evidence</source>
        <translation>정답 근거</translation>
    </message>
    <message>
        <source>Alternative evidence</source>
        <translation>대체 근거</translation>
    </message>
    <message>
        <source>Proposed as an alternative for {passage}; not in force yet</source>
        <translation>{passage}의 대체 근거로 제안됨 (아직 반영 안 됨)</translation>
    </message>
    <message>
        <source>Judged not evidence</source>
        <translation>근거 아님으로 판단됨</translation>
    </message>
    <message>
        <source>Not evidence</source>
        <translation>근거 아님</translation>
    </message>
    <message>
        <source>score {score:.3f}</source>
        <translation>점수 {score:.3f}</translation>
    </message>
    <message>
        <source>Covers part of an evidence item: {items}</source>
        <translation>근거 항목의 일부를 덮음: {items}</translation>
    </message>
</context>
<context>
    <name>RankingsArea</name>
    <message>
        <source>&lt;b&gt;No runs imported yet&lt;/b&gt;</source>
        <translation>&lt;b&gt;아직 가져온 검색 결과가 없습니다&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Top {k}&lt;/b&gt; — &lt;span style=&apos;color:{colour}&apos;&gt;■&lt;/span&gt; {system} ({depth} results)</source>
        <translation>&lt;b&gt;상위 {k}&lt;/b&gt; — &lt;span style=&apos;color:{colour}&apos;&gt;■&lt;/span&gt; {system} (결과 {depth}개)</translation>
    </message>
</context>
<context>
    <name>ReviewerMarks</name>
    <message>
        <source>Check a reviewer that is a machine (an LLM judge): its lines are kept and compared with the people&apos;s, never counted in the gold. Ctrl+Z undoes it.</source>
        <translation>기계(LLM 판정자)인 검수자를 체크하세요: 그 판정은 보관되고 사람의 판정과 비교되지만 정답에는 반영되지 않습니다. Ctrl+Z로 되돌립니다.</translation>
    </message>
    <message>
        <source>A machine</source>
        <translation>기계</translation>
    </message>
    <message>
        <source>A person</source>
        <translation>사람</translation>
    </message>
</context>
<context>
    <name>SearchResultsModel</name>
    <message>
        <source>Passage</source>
        <translation>문단</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>출처</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>본문</translation>
    </message>
</context>
<context>
    <name>ShortcutSheet</name>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>단축키</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>키</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>동작</translation>
    </message>
</context>
<context>
    <name>SystemsModel</name>
    <message>
        <source>System</source>
        <translation>시스템</translation>
    </message>
    <message>
        <source>Only it @{k}</source>
        <translation>단독 @{k}</translation>
    </message>
    <message>
        <source>Evidence items this system alone finds in its top {k}</source>
        <translation>이 시스템만 상위 {k} 안에서 찾는 정답 근거 수</translation>
    </message>
    <message>
        <source>Other misses @{k}</source>
        <translation>상대 놓침 @{k}</translation>
    </message>
    <message>
        <source>Items this system finds in its top {k} and the other misses</source>
        <translation>이 시스템은 상위 {k} 안에서 찾고 상대는 놓친 근거 수</translation>
    </message>
    <message>
        <source>How well the top-1 score tells answerable from abstain questions</source>
        <translation>1위 점수로 답변 가능한 질문과 보류할 질문을 얼마나 잘 가르는지</translation>
    </message>
    <message>
        <source>Threshold</source>
        <translation>임계값</translation>
    </message>
    <message>
        <source>Answer when the top-1 score is at least this</source>
        <translation>1위 점수가 이 값 이상이면 답변</translation>
    </message>
    <message>
        <source>Accuracy</source>
        <translation>정확도</translation>
    </message>
    <message>
        <source>Right answer-or-abstain decisions at the threshold</source>
        <translation>임계값에서 답변/보류 결정이 맞은 비율</translation>
    </message>
</context>
<context>
    <name>SystemsToolbar</name>
    <message>
        <source>Systems</source>
        <translation>시스템</translation>
    </message>
    <message>
        <source>System</source>
        <translation>시스템</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>비교</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>진행</translation>
    </message>
    <message>
        <source>%v/%m done</source>
        <translation>%v/%m 완료</translation>
    </message>
    <message>
        <source>A question counts as reviewed once its answerability is set (Y or B) and every evidence item that some system misses at K has a role given (1 or 2, or added with E or R); an imported role alone is not a review.</source>
        <translation>질문은 답변 여부를 정하고(Y 또는 B) 어느 시스템이든 K 안에서 놓친 정답 근거마다 역할을 주면(1 또는 2, 또는 E·R로 추가) 검수 완료로 셉니다. 가져온 역할만으로는 검수가 아닙니다.</translation>
    </message>
    <message>
        <source>K: how many top results count (5, 10 or any number)</source>
        <translation>K: 상위 몇 개의 결과를 셀지 (5, 10 또는 아무 수)</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(없음)</translation>
    </message>
</context>
<context>
    <name>TeamWords</name>
    <message>
        <source>fewer than two reviewers</source>
        <translation>검수자가 둘 미만</translation>
    </message>
    <message>
        <source>no item judged by two reviewers</source>
        <translation>두 검수자가 함께 본 항목 없음</translation>
    </message>
    <message>
        <source>one value everywhere</source>
        <translation>모두 같은 값</translation>
    </message>
    <message>
        <source>Krippendorff&apos;s α: — ({reason}).</source>
        <translation>Krippendorff α: — ({reason}).</translation>
    </message>
    <message>
        <source>Krippendorff&apos;s α: {alpha} (95%: {lo}–{hi}) over {n} items.</source>
        <translation>Krippendorff α: {alpha} (95%: {lo}–{hi}), 항목 {n}개.</translation>
    </message>
    <message>
        <source>Machines (compared, never counted in the gold): {names}.</source>
        <translation>기계 판정자(비교만 하고 정답에는 반영하지 않음): {names}.</translation>
    </message>
</context>
<context>
    <name>TiesModel</name>
    <message>
        <source>System</source>
        <translation>시스템</translation>
    </message>
    <message>
        <source>Measure</source>
        <translation>지표</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>값</translation>
    </message>
    <message>
        <source>Mean in trec_eval&apos;s order of tied passages</source>
        <translation>동점 문단을 trec_eval 순서로 둔 평균</translation>
    </message>
    <message>
        <source>Low</source>
        <translation>최저</translation>
    </message>
    <message>
        <source>Lowest mean over the orders of the tied passages</source>
        <translation>동점 문단의 모든 순서 중 가장 낮은 평균</translation>
    </message>
    <message>
        <source>High</source>
        <translation>최고</translation>
    </message>
    <message>
        <source>Highest mean over the orders of the tied passages</source>
        <translation>동점 문단의 모든 순서 중 가장 높은 평균</translation>
    </message>
    <message>
        <source>Questions</source>
        <translation>질문 수</translation>
    </message>
    <message>
        <source>Questions whose value depends on the tie order</source>
        <translation>값이 동점 순서에 따라 달라지는 질문 수</translation>
    </message>
</context>
<context>
    <name>WelcomePanel</name>
    <message>
        <source>Nothing to review yet</source>
        <translation>아직 검수할 것이 없습니다</translation>
    </message>
    <message>
        <source>Load the sample project (대한민국헌법, 33 questions, 3 systems)</source>
        <translation>예제 프로젝트 불러오기 (대한민국헌법, 질문 33개, 시스템 3개)</translation>
    </message>
    <message>
        <source>Or import your own files, in this order:</source>
        <translation>또는 직접 만든 파일을 이 순서로 가져오세요:</translation>
    </message>
    <message>
        <source>Open another database…</source>
        <translation>다른 데이터베이스 열기…</translation>
    </message>
    <message>
        <source>Your name as a reviewer:</source>
        <translation>검수자 이름:</translation>
    </message>
    <message>
        <source>written with every judgement you make</source>
        <translation>내리는 모든 판정에 함께 기록됩니다</translation>
    </message>
    <message>
        <source>1. Corpus…</source>
        <translation>1. 말뭉치…</translation>
    </message>
    <message>
        <source>2. Questions…</source>
        <translation>2. 질문…</translation>
    </message>
    <message>
        <source>3. Gold evidence…</source>
        <translation>3. 정답 근거…</translation>
    </message>
    <message>
        <source>4. A system&apos;s run…</source>
        <translation>4. 시스템 검색 결과…</translation>
    </message>
    <message>
        <source>Database: {path}</source>
        <translation>데이터베이스: {path}</translation>
    </message>
    <message>
        <source>Passages: {n}</source>
        <translation>문단: {n}</translation>
    </message>
    <message>
        <source>Questions: {n}</source>
        <translation>질문: {n}</translation>
    </message>
    <message>
        <source>Evidence items: {n}</source>
        <translation>정답 근거 항목: {n}</translation>
    </message>
    <message>
        <source>Systems: {names}</source>
        <translation>시스템: {names}</translation>
    </message>
</context>
<context>
    <name>actions</name>
    <message>
        <source>&amp;New database…</source>
        <translation>새 데이터베이스(&amp;N)…</translation>
    </message>
    <message>
        <source>&amp;Open database…</source>
        <translation>데이터베이스 열기(&amp;O)…</translation>
    </message>
    <message>
        <source>Import &amp;corpus…</source>
        <translation>말뭉치 가져오기(&amp;C)…</translation>
    </message>
    <message>
        <source>Import &amp;questions…</source>
        <translation>질문 가져오기(&amp;Q)…</translation>
    </message>
    <message>
        <source>Import &amp;gold…</source>
        <translation>정답 근거 가져오기(&amp;G)…</translation>
    </message>
    <message>
        <source>Import &amp;run…</source>
        <translation>검색 결과 가져오기(&amp;R)…</translation>
    </message>
    <message>
        <source>Import &amp;judgements…</source>
        <translation>판단 기록 가져오기(&amp;J)…</translation>
    </message>
    <message>
        <source>Load the &amp;sample project</source>
        <translation>예제 프로젝트 불러오기(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Merge database…</source>
        <translation>데이터베이스 합치기(&amp;M)…</translation>
    </message>
    <message>
        <source>&amp;Export report…</source>
        <translation>보고서 내보내기(&amp;E)…</translation>
    </message>
    <message>
        <source>Export my &amp;judgements…</source>
        <translation>내 판단 기록 내보내기(&amp;J)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>끝내기(&amp;Q)</translation>
    </message>
    <message>
        <source>Mark the item core</source>
        <translation>항목을 핵심 근거로</translation>
    </message>
    <message>
        <source>Core</source>
        <translation>핵심</translation>
    </message>
    <message>
        <source>Mark the item supporting</source>
        <translation>항목을 보조 근거로</translation>
    </message>
    <message>
        <source>Supporting</source>
        <translation>보조</translation>
    </message>
    <message>
        <source>Add the passage as a core evidence item</source>
        <translation>문단을 핵심 근거 항목으로 추가</translation>
    </message>
    <message>
        <source>+ Core</source>
        <translation>+ 핵심</translation>
    </message>
    <message>
        <source>Add the passage as a supporting evidence item</source>
        <translation>문단을 보조 근거 항목으로 추가</translation>
    </message>
    <message>
        <source>+ Supporting</source>
        <translation>+ 보조</translation>
    </message>
    <message>
        <source>Accept the passage as an alternative</source>
        <translation>문단을 대체 근거로 인정</translation>
    </message>
    <message>
        <source>Alternative</source>
        <translation>대체</translation>
    </message>
    <message>
        <source>Mark the passage not evidence</source>
        <translation>문단을 근거 아님으로</translation>
    </message>
    <message>
        <source>Not evidence</source>
        <translation>근거 아님</translation>
    </message>
    <message>
        <source>Dismiss the candidate alternative</source>
        <translation>대체 근거 후보 제외</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>후보 제외</translation>
    </message>
    <message>
        <source>Hide the picked candidate alternative of the selected item from your list</source>
        <translation>고른 대체 근거 후보를 선택한 항목의 내 목록에서 숨깁니다</translation>
    </message>
    <message>
        <source>Drop the evidence item…</source>
        <translation>근거 항목 빼기…</translation>
    </message>
    <message>
        <source>Drop</source>
        <translation>빼기</translation>
    </message>
    <message>
        <source>Question answerable</source>
        <translation>답변 가능한 질문</translation>
    </message>
    <message>
        <source>Answerable</source>
        <translation>답변 가능</translation>
    </message>
    <message>
        <source>Question to be abstained on</source>
        <translation>답변 보류할 질문</translation>
    </message>
    <message>
        <source>Abstain</source>
        <translation>보류</translation>
    </message>
    <message>
        <source>Write a note…</source>
        <translation>메모 쓰기…</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>메모</translation>
    </message>
    <message>
        <source>Search the corpus…</source>
        <translation>말뭉치 검색…</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>검색</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>되돌리기(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>다시 하기(&amp;R)</translation>
    </message>
    <message>
        <source>Next question</source>
        <translation>다음 질문</translation>
    </message>
    <message>
        <source>Previous question</source>
        <translation>이전 질문</translation>
    </message>
    <message>
        <source>Next miss</source>
        <translation>다음 누락</translation>
    </message>
    <message>
        <source>Unjudged &amp;pool</source>
        <translation>판정 대기(&amp;P)</translation>
    </message>
    <message>
        <source>Next question with unjudged passages</source>
        <translation>판정할 문단이 남은 다음 질문</translation>
    </message>
    <message>
        <source>Filter questions</source>
        <translation>질문 거르기</translation>
    </message>
    <message>
        <source>Compare two systems</source>
        <translation>두 시스템 비교</translation>
    </message>
    <message>
        <source>Metrics: tall view</source>
        <translation>지표 크게 보기</translation>
    </message>
    <message>
        <source>Raise the metrics dock to most of the window&apos;s height, and back</source>
        <translation>지표 창을 창 높이 대부분으로 키우거나 되돌립니다</translation>
    </message>
    <message>
        <source>Adjudicate: take reviewer {n}&apos;s value</source>
        <translation>판정: {n}번 검수자의 값 채택</translation>
    </message>
    <message>
        <source>&amp;Blind mode (hide other reviewers)</source>
        <translation>블라인드 모드(&amp;B) (다른 검수자 숨김)</translation>
    </message>
    <message>
        <source>Hide other reviewers&apos; judgements so that your review is independent</source>
        <translation>다른 검수자의 판단을 숨겨 독립적으로 검수합니다</translation>
    </message>
    <message>
        <source>Change &amp;reviewer name…</source>
        <translation>검수자 이름 바꾸기(&amp;R)…</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>단축키(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;About Recall Reviewer</source>
        <translation>Recall Reviewer 정보(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>파일(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>보기(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Review</source>
        <translation>검수(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>도움말(&amp;H)</translation>
    </message>
    <message>
        <source>Import GraphRAG/LightRAG &amp;folder…</source>
        <translation>GraphRAG/LightRAG 폴더 가져오기(&amp;F)…</translation>
    </message>
    <message>
        <source>Conte&amp;xt budget…</source>
        <translation>컨텍스트 예산(&amp;X)…</translation>
    </message>
    <message>
        <source>The characters of context runs with spans are also scored at (@2000ch)</source>
        <translation>스팬이 있는 실행을 추가로 채점하는 컨텍스트 글자 수 (@2000ch)</translation>
    </message>
    <message>
        <source>Adopt the machine&apos;s suggestion as your own judgement</source>
        <translation>기계의 제안을 내 판정으로 채택</translation>
    </message>
</context>
<context>
    <name>terms</name>
    <message>
        <source>This run&apos;s order is not a ranking (a graph retriever&apos;s context): its fair figures are those over the whole context; rank measures and shorter cut-offs follow the given order.</source>
        <translation>이 실행의 순서는 순위가 아닙니다 (그래프 검색기의 컨텍스트): 공정한 수치는 컨텍스트 전체에 대한 것이며, 순위 지표와 더 짧은 컷오프는 주어진 순서를 따릅니다.</translation>
    </message>
    <message>
        <source>At a budget of {n} characters: the context is the ranked passages&apos; first {n} characters (the last passage cut), so chunkings are compared at equal context length.</source>
        <translation>{n}자 예산: 컨텍스트는 순위 passage의 앞 {n}자입니다 (마지막 passage는 잘림). 그래서 청킹들을 같은 컨텍스트 길이에서 비교합니다.</translation>
    </message>
    <message>
        <source>SpanPrecision: the share of the top K&apos;s text that is evidence</source>
        <translation>SpanPrecision: 상위 K의 텍스트 중 근거인 비율</translation>
    </message>
    <message>
        <source>SpanRecall: the mean share of each evidence item&apos;s text the top K covers</source>
        <translation>SpanRecall: 상위 K가 덮는 각 근거 항목 텍스트 비율의 평균</translation>
    </message>
    <message>
        <source>machine mark</source>
        <translation>기계 표시</translation>
    </message>
    <message>
        <source>core</source>
        <translation>핵심</translation>
    </message>
    <message>
        <source>supporting</source>
        <translation>보조</translation>
    </message>
    <message>
        <source>unassigned</source>
        <translation>미지정</translation>
    </message>
    <message>
        <source>adjudicated</source>
        <translation>판정됨</translation>
    </message>
    <message>
        <source>agreed</source>
        <translation>합의</translation>
    </message>
    <message>
        <source>single reviewer</source>
        <translation>검수자 1인의 판단</translation>
    </message>
    <message>
        <source>waiting for a second reviewer</source>
        <translation>두 번째 검수자를 기다리는 중</translation>
    </message>
    <message>
        <source>disputed</source>
        <translation>이견</translation>
    </message>
    <message>
        <source>adjud.</source>
        <translation>판정</translation>
    </message>
    <message>
        <source>single</source>
        <translation>1인</translation>
    </message>
    <message>
        <source>pending</source>
        <translation>대기</translation>
    </message>
    <message>
        <source>untouched</source>
        <translation>손대지 않음</translation>
    </message>
    <message>
        <source>in progress</source>
        <translation>진행 중</translation>
    </message>
    <message>
        <source>done</source>
        <translation>완료</translation>
    </message>
    <message>
        <source>role</source>
        <translation>역할</translation>
    </message>
    <message>
        <source>alternative</source>
        <translation>대체 근거</translation>
    </message>
    <message>
        <source>not evidence</source>
        <translation>근거 아님</translation>
    </message>
    <message>
        <source>answerability</source>
        <translation>답변 가능 여부</translation>
    </message>
    <message>
        <source>note</source>
        <translation>메모</translation>
    </message>
    <message>
        <source>adjudication</source>
        <translation>판정</translation>
    </message>
    <message>
        <source>new evidence item</source>
        <translation>새 근거 항목</translation>
    </message>
    <message>
        <source>dropped item</source>
        <translation>뺀 항목</translation>
    </message>
    <message>
        <source>dismissed candidate</source>
        <translation>제외한 후보</translation>
    </message>
    <message>
        <source>R</source>
        <translation>R</translation>
    </message>
    <message>
        <source>CoreR</source>
        <translation>핵심R</translation>
    </message>
    <message>
        <source>Hit</source>
        <translation>Hit</translation>
    </message>
    <message>
        <source>MRR</source>
        <translation>MRR</translation>
    </message>
    <message>
        <source>nDCG</source>
        <translation>nDCG</translation>
    </message>
    <message>
        <source>P</source>
        <translation>P</translation>
    </message>
    <message>
        <source>Judged</source>
        <translation>판정</translation>
    </message>
    <message>
        <source>Recall: the share of evidence items found in the top K</source>
        <translation>Recall: 상위 K 안에서 찾은 정답 근거의 비율</translation>
    </message>
    <message>
        <source>CoreRecall: the share of core evidence items found in the top K</source>
        <translation>CoreRecall: 상위 K 안에서 찾은 핵심 근거의 비율</translation>
    </message>
    <message>
        <source>Hit: 1 when any evidence item is in the top K</source>
        <translation>Hit: 정답 근거가 하나라도 상위 K 안에 있으면 1</translation>
    </message>
    <message>
        <source>MRR: 1 / rank of the first evidence passage in the top K</source>
        <translation>MRR: 상위 K 안의 첫 정답 근거 순위의 역수</translation>
    </message>
    <message>
        <source>nDCG: rank quality, core counts twice</source>
        <translation>nDCG: 순위 품질 (핵심 근거는 두 배)</translation>
    </message>
    <message>
        <source>P: the share of the top K that is evidence (K divides)</source>
        <translation>P: 상위 K 중 정답 근거의 비율 (K로 나눔)</translation>
    </message>
    <message>
        <source>Judged: the share of the top K that is judged (evidence or not)</source>
        <translation>Judged: 상위 K 중 판정된(근거든 아니든) 문단의 비율</translation>
    </message>
    <message>
        <source>reading</source>
        <translation>읽는 중</translation>
    </message>
    <message>
        <source>checking ids</source>
        <translation>ID 확인 중</translation>
    </message>
    <message>
        <source>building the search index</source>
        <translation>검색 색인 만드는 중</translation>
    </message>
    <message>
        <source>saving</source>
        <translation>저장하는 중</translation>
    </message>
    <message>
        <source>backing up</source>
        <translation>백업하는 중</translation>
    </message>
    <message>
        <source>scoring</source>
        <translation>점수 계산 중</translation>
    </message>
    <message>
        <source>testing</source>
        <translation>검정 중</translation>
    </message>
    <message>
        <source>comparing hits</source>
        <translation>찾은 근거 비교 중</translation>
    </message>
    <message>
        <source>checking ties</source>
        <translation>동점 확인 중</translation>
    </message>
    <message>
        <source>● hit of an evidence item · ◐ hit through an alternative · ◆ ◈ found by this system alone · ○ not evidence · ◌ proposed alternative · × missed at K</source>
        <translation>● 정답 근거를 찾음 · ◐ 대체 근거로 찾음 · ◆ ◈ 이 시스템만 찾음 · ○ 근거 아님 · ◌ 제안된 대체 근거 · × K 안에서 놓침</translation>
    </message>
    <message>
        <source>withdrawn</source>
        <translation>철회</translation>
    </message>
    <message>
        <source>answerable</source>
        <translation>답변 가능</translation>
    </message>
    <message>
        <source>abstain</source>
        <translation>답변 보류</translation>
    </message>
    <message>
        <source>evidence</source>
        <translation>근거</translation>
    </message>
    <message>
        <source>alternative for {passage}</source>
        <translation>{passage}의 대체 근거</translation>
    </message>
    <message>
        <source>dismissed for {passage}</source>
        <translation>{passage}의 후보에서 제외</translation>
    </message>
    <message>
        <source>added</source>
        <translation>추가함</translation>
    </message>
    <message>
        <source>dropped</source>
        <translation>뺌</translation>
    </message>
    <message>
        <source>SpanR</source>
        <translation>스팬R</translation>
    </message>
    <message>
        <source>SpanP</source>
        <translation>스팬P</translation>
    </message>
    <message>
        <source>Not defined across chunkings: a passage of another chunking is not one judged passage, so neither its gain nor its relevance is known (design section 10).</source>
        <translation>청킹 간에는 정의되지 않음: 다른 청킹의 passage는 판정된 passage가 아니므로 이득도 관련성도 알 수 없습니다 (설계 10절).</translation>
    </message>
</context>
</TS>
