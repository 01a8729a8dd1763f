; Inno Setup script of Parley's Windows installer (Inno Setup 6).
;
;   iscc /DAppVersion=0.1.0 packaging\windows\parley.iss
;
; Packs the frozen one-folder app that packaging\parley.spec builds on Windows
; (build\pyinstaller\dist\Parley: Parley.exe, windowed; parley-cli.exe for the terminal;
; _internal\ with Python, Qt, the ggml libraries and the default models) into
; dist\Parley-<version>-windows-x64-setup.exe. Per-user install by default (no administrator
; needed), per-machine when chosen. Uninstalling removes everything it installed; settings and
; conversations in %LOCALAPPDATA%\parley are the user's and stay.
;
; Not run on the Linux machine the project is developed on: the CI workflow
; .github\workflows\installers.yml builds and installs it on a hosted Windows runner.

#ifndef AppVersion
  #error Pass the version: iscc /DAppVersion=X.Y.Z packaging\windows\parley.iss
#endif
#define Bundle "..\..\build\pyinstaller\dist\Parley"

[Setup]
AppId={{6F1C2B0E-3D7A-4C55-9E0B-7A1D5C2E8B41}
AppName=Parley
AppVersion={#AppVersion}
AppVerName=Parley {#AppVersion}
AppPublisher=Parley
DefaultDirName={autopf}\Parley
DefaultGroupName=Parley
DisableProgramGroupPage=yes
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
OutputDir=..\..\dist
OutputBaseFilename=Parley-{#AppVersion}-windows-x64-setup
SetupIconFile=..\..\build\pyinstaller\work\parley\icons\parley.ico
UninstallDisplayIcon={app}\Parley.exe
Compression=lzma2
SolidCompression=yes
WizardStyle=modern
MinVersion=10.0

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[Files]
Source: "{#Bundle}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{autoprograms}\Parley"; Filename: "{app}\Parley.exe"
Name: "{autodesktop}\Parley"; Filename: "{app}\Parley.exe"; Tasks: desktopicon

[Run]
Filename: "{app}\Parley.exe"; Description: "{cm:LaunchProgram,Parley}"; Flags: nowait postinstall skipifsilent
