<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>ConversationView</name>
    <message numerus="yes">
        <source>%Ln token(s) · {speed} tok/s</source>
        <translation>
            <numerusform>%Ln token · {speed} tok/s</numerusform>
            <numerusform>%Ln tokens · {speed} tok/s</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>DictationHistoryWindow</name>
    <message numerus="yes">
        <source>Dictations are kept for %Ln day(s) (Settings &gt; Dictation).</source>
        <translation>
            <numerusform>Dictations are kept for %Ln day (Settings &gt; Dictation).</numerusform>
            <numerusform>Dictations are kept for %Ln days (Settings &gt; Dictation).</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>DictationPage</name>
    <message numerus="yes">
        <source>%Ln entry(s).</source>
        <translation>
            <numerusform>%Ln entry.</numerusform>
            <numerusform>%Ln entries.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> day(s)</source>
        <translation>
            <numerusform> day</numerusform>
            <numerusform> days</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>DocumentsPage</name>
    <message numerus="yes">
        <source>%n file(s) could not be read</source>
        <translation>
            <numerusform>%n file could not be read</numerusform>
            <numerusform>%n files could not be read</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>FirstStartPage</name>
    <message numerus="yes">
        <source>%Ln core(s)</source>
        <translation>
            <numerusform>%Ln core</numerusform>
            <numerusform>%Ln cores</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message numerus="yes">
        <source>%Ln minute(s) ago</source>
        <translation>
            <numerusform>%Ln minute ago</numerusform>
            <numerusform>%Ln minutes ago</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ModelsPage</name>
    <message numerus="yes">
        <source>{group} (%Ln)</source>
        <translation>
            <numerusform>{group} (%Ln)</numerusform>
            <numerusform>{group} (%Ln)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>VocabularyNote</name>
    <message numerus="yes">
        <source>%Ln entry(s)</source>
        <translation>
            <numerusform>%Ln entry</numerusform>
            <numerusform>%Ln entries</numerusform>
        </translation>
    </message>
</context>
</TS>
