; Parley's Windows installer (NSIS 3, 64-bit installer and uninstaller).
;
;   makensis -DVERSION=0.1.0 -DBUNDLE=<frozen app folder> -DICON=<parley.ico> -DOUTFILE=<setup.exe> parley.nsi
;
; packaging/build_windows.sh runs it (Debian's makensis, on Linux) on the frozen one-folder app
; (Parley.exe, windowed; parley-cli.exe for the terminal; _internal\ with Python, Qt, the ggml
; DLLs and the default models) and writes dist\Parley-<version>-windows-x64-setup.exe.
;
; - Per user, no administrator: %LOCALAPPDATA%\Programs\Parley by default, a Start menu entry,
;   an entry in Settings > Apps (HKCU), all for the current user only.
; - Silent: Parley-...-setup.exe /S [/D=C:\some folder] (/D last, unquoted, may hold spaces).
; - Upgrade: run a newer (or the same) installer again; it finds the folder of the last install
;   (HKCU\Software\Parley), replaces the program files and leaves the user's data alone.
; - A running Parley (it holds the named mutex "ParleyRunning") is never overwritten: the
;   installer says so and stops (exit code 2 when silent) before it changes anything.
; - The uninstaller removes the program folder, the Start menu entry and the registry entries.
;   Conversations, settings and the model cache (%LOCALAPPDATA%\parley) stay unless the user
;   says yes when asked, or passes /PURGE to a silent uninstall (Uninstall.exe /S /PURGE).
; - A damaged or truncated installer fails its own CRC check before it runs at all.

Unicode true
Target amd64-unicode
ManifestDPIAware true
RequestExecutionLevel user
!ifndef COMPRESSOR
  !define COMPRESSOR "/SOLID lzma"
!endif
SetCompressor ${COMPRESSOR}
CRCCheck force

!ifndef VERSION
  !error "pass -DVERSION=X.Y.Z"
!endif
!ifndef BUNDLE
  !error "pass -DBUNDLE=<the frozen app folder>"
!endif
!ifndef OUTFILE
  !define OUTFILE "Parley-${VERSION}-windows-x64-setup.exe"
!endif

!define APP "Parley"
!define UNINSTALL_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\Parley"
!define APP_KEY "Software\Parley"
!define MUTEX "ParleyRunning"

!include "LogicLib.nsh"
!include "FileFunc.nsh"
!include "MUI2.nsh"

Name "${APP} ${VERSION}"
OutFile "${OUTFILE}"
InstallDir "$LOCALAPPDATA\Programs\Parley"
InstallDirRegKey HKCU "${APP_KEY}" "InstallDir"
BrandingText "Parley ${VERSION}"
!ifdef ICON
  !define MUI_ICON "${ICON}"
  !define MUI_UNICON "${ICON}"
!endif
!define MUI_FINISHPAGE_RUN "$INSTDIR\Parley.exe"
!define MUI_FINISHPAGE_RUN_TEXT "Start Parley"

!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH
!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_INSTFILES
!insertmacro MUI_LANGUAGE "English"

VIProductVersion "${VERSION}.0"
VIAddVersionKey /LANG=${LANG_ENGLISH} "ProductName" "Parley"
VIAddVersionKey /LANG=${LANG_ENGLISH} "ProductVersion" "${VERSION}"
VIAddVersionKey /LANG=${LANG_ENGLISH} "FileVersion" "${VERSION}"
VIAddVersionKey /LANG=${LANG_ENGLISH} "FileDescription" "Parley installer"
VIAddVersionKey /LANG=${LANG_ENGLISH} "LegalCopyright" "Parley contributors, MIT licence"

; Stop, changing nothing, while Parley runs (its mutex exists).
!macro REFUSE_WHILE_RUNNING un
Function ${un}RefuseWhileRunning
  System::Call 'kernel32::OpenMutexW(i 0x00100000, i 0, w "${MUTEX}") p .r0'
  ${If} $0 P<> 0
    System::Call 'kernel32::CloseHandle(p r0)'
    MessageBox MB_OK|MB_ICONSTOP "Parley is running. Quit it (File > Quit, or Quit in its tray menu), then run this again. Nothing was changed." /SD IDOK
    SetErrorLevel 2
    Quit
  ${EndIf}
FunctionEnd
!macroend
!insertmacro REFUSE_WHILE_RUNNING ""
!insertmacro REFUSE_WHILE_RUNNING "un."

Function .onInit
  SetShellVarContext current
  Call RefuseWhileRunning
FunctionEnd

Section "Parley" SecMain
  SetShellVarContext current
  SetOutPath "$INSTDIR"
  ; An upgrade replaces the program files as a whole: nothing of the old version lingers.
  ; Only what an install puts here is removed; the user's data lives elsewhere.
  RMDir /r "$INSTDIR\_internal"
  Delete "$INSTDIR\Parley.exe"
  Delete "$INSTDIR\parley-cli.exe"
  File /r "${BUNDLE}\*"
  WriteUninstaller "$INSTDIR\Uninstall.exe"

  CreateShortcut "$SMPROGRAMS\Parley.lnk" "$INSTDIR\Parley.exe" "" "$INSTDIR\Parley.exe" 0

  WriteRegStr HKCU "${APP_KEY}" "InstallDir" "$INSTDIR"
  WriteRegStr HKCU "${APP_KEY}" "Version" "${VERSION}"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayName" "Parley"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "Publisher" "Parley"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayIcon" "$INSTDIR\Parley.exe"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "UninstallString" '"$INSTDIR\Uninstall.exe"'
  WriteRegStr HKCU "${UNINSTALL_KEY}" "QuietUninstallString" '"$INSTDIR\Uninstall.exe" /S'
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "NoModify" 1
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "NoRepair" 1
  ${GetSize} "$INSTDIR" "/S=0K" $0 $1 $2
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "EstimatedSize" $0
SectionEnd

Function un.onInit
  SetShellVarContext current
  Call un.RefuseWhileRunning
FunctionEnd

Section "Uninstall"
  SetShellVarContext current
  Delete "$SMPROGRAMS\Parley.lnk"
  RMDir /r "$INSTDIR\_internal"
  Delete "$INSTDIR\Parley.exe"
  Delete "$INSTDIR\parley-cli.exe"
  Delete "$INSTDIR\Uninstall.exe"
  RMDir "$INSTDIR"
  DeleteRegKey HKCU "${UNINSTALL_KEY}"
  DeleteRegKey HKCU "${APP_KEY}"
  ; The user's conversations, settings and model cache: kept unless asked.
  ${GetParameters} $R0
  ClearErrors
  ${GetOptions} $R0 "/PURGE" $R1
  ${IfNot} ${Errors}
    RMDir /r "$LOCALAPPDATA\parley"
  ${ElseIfNot} ${Silent}
    MessageBox MB_YESNO|MB_DEFBUTTON2 "Also delete your Parley conversations, settings and downloaded models ($LOCALAPPDATA\parley)?" IDNO keep
    RMDir /r "$LOCALAPPDATA\parley"
    keep:
  ${EndIf}
SectionEnd
