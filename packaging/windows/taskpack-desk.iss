; Inno Setup script for TaskPack Desk on Windows — prepared, not built here (no Windows CI).
; Build on Windows after `pyinstaller packaging\taskpack-desk.spec` (with Pillow installed so
; the PNG icon becomes taskpack-desk.exe's .ico):   iscc packaging\windows\taskpack-desk.iss
;
; What it registers, per user (no admin rights needed):
;   .taskpack       -> ProgID TaskPack.Pack      (application/vnd.taskpack+zip)
;   .taskpack.json  -> ProgID TaskPack.PackJson  (application/vnd.taskpack+json)
; Windows matches only the LAST extension, so x.taskpack.json is a ".json" file to the shell:
; the desk is added to .json's OpenWithProgids (offered in "Open with"), never made the
; default for all JSON. Double-click opens "taskpack-desk.exe" "%1"; a second launch hands
; the file to the running window (single instance, in the GUI entry point).
; The install folder goes on the user's PATH so agents and scripts find taskpack.exe.

#define AppName "TaskPack Desk"
#define AppVersion "0.1.0"
#define DistDir "..\..\dist\taskpack-desk"

[Setup]
AppId={{6D1B7C3E-3A52-4B8E-9C1D-7A5F2E0B4C11}
AppName={#AppName}
AppVersion={#AppVersion}
DefaultDirName={localappdata}\Programs\TaskPack Desk
PrivilegesRequired=lowest
ChangesAssociations=yes
ChangesEnvironment=yes
OutputBaseFilename=taskpack-desk-{#AppVersion}-setup
Compression=lzma2
SolidCompression=yes

[Files]
Source: "{#DistDir}\*"; DestDir: "{app}"; Flags: recursesubdirs ignoreversion

[Icons]
Name: "{userprograms}\TaskPack Desk"; Filename: "{app}\taskpack-desk.exe"

[Registry]
Root: HKCU; Subkey: "Software\Classes\.taskpack"; ValueType: string; ValueName: ""; ValueData: "TaskPack.Pack"; Flags: uninsdeletevalue
Root: HKCU; Subkey: "Software\Classes\.taskpack"; ValueType: string; ValueName: "Content Type"; ValueData: "application/vnd.taskpack+zip"; Flags: uninsdeletevalue
Root: HKCU; Subkey: "Software\Classes\TaskPack.Pack"; ValueType: string; ValueName: ""; ValueData: "TaskPack handoff"; Flags: uninsdeletekey
Root: HKCU; Subkey: "Software\Classes\TaskPack.Pack\DefaultIcon"; ValueType: string; ValueName: ""; ValueData: """{app}\taskpack-desk.exe"",0"
Root: HKCU; Subkey: "Software\Classes\TaskPack.Pack\shell\open\command"; ValueType: string; ValueName: ""; ValueData: """{app}\taskpack-desk.exe"" ""%1"""
Root: HKCU; Subkey: "Software\Classes\.json\OpenWithProgids"; ValueType: string; ValueName: "TaskPack.PackJson"; ValueData: ""; Flags: uninsdeletevalue
Root: HKCU; Subkey: "Software\Classes\TaskPack.PackJson"; ValueType: string; ValueName: ""; ValueData: "TaskPack handoff (single JSON file)"; Flags: uninsdeletekey
Root: HKCU; Subkey: "Software\Classes\TaskPack.PackJson\DefaultIcon"; ValueType: string; ValueName: ""; ValueData: """{app}\taskpack-desk.exe"",0"
Root: HKCU; Subkey: "Software\Classes\TaskPack.PackJson\shell\open\command"; ValueType: string; ValueName: ""; ValueData: """{app}\taskpack-desk.exe"" ""%1"""
Root: HKCU; Subkey: "Environment"; ValueType: expandsz; ValueName: "Path"; ValueData: "{olddata};{app}"; Check: NeedsAddPath(ExpandConstant('{app}'))

[Code]
function NeedsAddPath(Dir: string): Boolean;
var
  Path: string;
begin
  if not RegQueryStringValue(HKEY_CURRENT_USER, 'Environment', 'Path', Path) then
    Path := '';
  Result := Pos(';' + Uppercase(Dir) + ';', ';' + Uppercase(Path) + ';') = 0;
end;
