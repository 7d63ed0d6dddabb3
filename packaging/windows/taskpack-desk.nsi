; TaskPack Desk for Windows: a per-user installer (no administrator rights), built on Linux
; with Debian's NSIS by `make package-windows` (packaging/windows/winbuild.py):
;
;   makensis -DDIST=dist/windows/taskpack-desk -DOUT=dist/windows -DVERSION=0.1.0 taskpack-desk.nsi
;
; It installs the PyInstaller folder into %LOCALAPPDATA%\Programs\TaskPack Desk and, for this
; user only (HKCU):
;   - a Start-menu entry;
;   - .taskpack -> ProgID TaskPack.Pack (application/vnd.taskpack+zip) and .taskpack.json ->
;     TaskPack.PackJson (application/vnd.taskpack+json), each with the app's icon and an
;     "Open with TaskPack Desk" verb that runs taskpack-desk.exe "%1". Explorer goes by the
;     last extension only, so x.taskpack.json is a .json file to it: the desk is offered in
;     its "Open with" list (.json\OpenWithProgids), never made the default for all JSON;
;   - the MIME database entries for both types;
;   - its folder on the user's PATH, so a new terminal finds taskpack.exe;
;   - an entry in Settings > Apps (Installed apps) that uninstalls it.
; The uninstaller takes all of that away again and leaves the person's desk (their passports,
; under %APPDATA%) alone: that is their work, not the program.
;
; `setup.exe /S` installs silently, `uninstall.exe /S` removes silently.

Unicode true
Target amd64-unicode
ManifestDPIAware true
RequestExecutionLevel user
SetCompressor /SOLID lzma

!ifndef VERSION
  !define VERSION "0.1.0"
!endif
!ifndef DIST
  !define DIST "..\..\dist\windows\taskpack-desk"
!endif
!ifndef OUT
  !define OUT "."
!endif

!define APP "TaskPack Desk"
!define EXE "taskpack-desk.exe"
!define CLASSES "Software\Classes"
!define UNINSTALL_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\TaskPackDesk"
!define HWND_BROADCAST 0xFFFF
!define WM_SETTINGCHANGE 0x001A

!include "LogicLib.nsh"

Name "${APP}"
OutFile "${OUT}\taskpack-desk-${VERSION}-setup.exe"
InstallDir "$LOCALAPPDATA\Programs\${APP}"
ShowInstDetails nevershow
ShowUninstDetails nevershow
VIProductVersion "${VERSION}.0"
VIAddVersionKey "ProductName" "${APP}"
VIAddVersionKey "FileDescription" "${APP} installer"
VIAddVersionKey "ProductVersion" "${VERSION}"
VIAddVersionKey "FileVersion" "${VERSION}"
VIAddVersionKey "LegalCopyright" "MIT licence"

Page instfiles
UninstPage uninstConfirm
UninstPage instfiles

; --- one file type: extension, ProgID, icon, the open verb, MIME type ---------------------
!macro FileTypeIn ROOT EXT PROGID DESCRIPTION MIME
  WriteRegStr ${ROOT} "${CLASSES}\${EXT}" "" "${PROGID}"
  WriteRegStr ${ROOT} "${CLASSES}\${EXT}" "Content Type" "${MIME}"
  WriteRegStr ${ROOT} "${CLASSES}\${EXT}\OpenWithProgids" "${PROGID}" ""
  WriteRegStr ${ROOT} "${CLASSES}\${PROGID}" "" "${DESCRIPTION}"
  WriteRegStr ${ROOT} "${CLASSES}\${PROGID}\DefaultIcon" "" '"$INSTDIR\${EXE}",0'
  WriteRegStr ${ROOT} "${CLASSES}\${PROGID}\shell" "" "open"
  WriteRegStr ${ROOT} "${CLASSES}\${PROGID}\shell\open" "" "Open with ${APP}"
  WriteRegStr ${ROOT} "${CLASSES}\${PROGID}\shell\open\command" "" '"$INSTDIR\${EXE}" "%1"'
  WriteRegStr ${ROOT} "${CLASSES}\MIME\Database\Content Type\${MIME}" "Extension" "${EXT}"
!macroend

!macro FileType EXT PROGID DESCRIPTION MIME
  !insertmacro FileTypeIn HKCU "${EXT}" "${PROGID}" "${DESCRIPTION}" "${MIME}"
  ${If} $UnderWine == 1
    !insertmacro FileTypeIn HKLM "${EXT}" "${PROGID}" "${DESCRIPTION}" "${MIME}"
  ${EndIf}
!macroend

!macro RemoveFileTypeIn ROOT EXT PROGID MIME
  ; the extension keys go only while they still point at us (another app may own them now)
  ReadRegStr $0 ${ROOT} "${CLASSES}\${EXT}" ""
  ${If} $0 == "${PROGID}"
    DeleteRegValue ${ROOT} "${CLASSES}\${EXT}" ""
    DeleteRegValue ${ROOT} "${CLASSES}\${EXT}" "Content Type"
  ${EndIf}
  DeleteRegValue ${ROOT} "${CLASSES}\${EXT}\OpenWithProgids" "${PROGID}"
  DeleteRegKey /ifempty ${ROOT} "${CLASSES}\${EXT}\OpenWithProgids"
  DeleteRegKey /ifempty ${ROOT} "${CLASSES}\${EXT}"
  DeleteRegKey ${ROOT} "${CLASSES}\${PROGID}"
  DeleteRegKey ${ROOT} "${CLASSES}\MIME\Database\Content Type\${MIME}"
!macroend

!macro RemoveFileType EXT PROGID MIME
  !insertmacro RemoveFileTypeIn HKCU "${EXT}" "${PROGID}" "${MIME}"
  ${If} $UnderWine == 1
    !insertmacro RemoveFileTypeIn HKLM "${EXT}" "${PROGID}" "${MIME}"
  ${EndIf}
!macroend

; Wine (8 and earlier) reads HKEY_CLASSES_ROOT from the machine's classes only, never merging
; the user's (HKCU\Software\Classes), which Windows has done since Windows 2000: under Wine,
; whose prefix belongs to the one user anyway, the file types are written to both, so a
; double-click or `start x.taskpack` finds them. Wine is known by ntdll's wine_get_version.
Var UnderWine
!macro DetectWine
  StrCpy $UnderWine 0
  System::Call 'kernel32::GetModuleHandle(t "ntdll.dll") p .r0'
  System::Call 'kernel32::GetProcAddress(p r0, m "wine_get_version") p .r1'
  ${If} $1 != 0
    StrCpy $UnderWine 1
  ${EndIf}
!macroend

; $0: a PATH value -> $1: the same without this folder's entries, $6: 1 if it had one
!macro PathWithout UN
Function ${UN}PathWithout
  StrCpy $1 ""
  StrCpy $2 $0
  StrCpy $6 0
  next_entry:
    StrCmp $2 "" done
    StrCpy $3 0
  scan:
    StrCpy $4 $2 1 $3
    StrCmp $4 "" cut
    StrCmp $4 ";" cut
    IntOp $3 $3 + 1
    Goto scan
  cut:
    StrCpy $5 $2 $3
    IntOp $3 $3 + 1
    StrCpy $2 $2 "" $3
    StrCmp $5 "" next_entry
    ${If} $5 == $INSTDIR  ; NSIS compares case-insensitively, as Windows does paths
    ${OrIf} $5 == "$INSTDIR\"
      StrCpy $6 1
      Goto next_entry
    ${EndIf}
    ${If} $1 == ""
      StrCpy $1 $5
    ${Else}
      StrCpy $1 "$1;$5"
    ${EndIf}
    Goto next_entry
  done:
FunctionEnd
!macroend
!insertmacro PathWithout ""
!insertmacro PathWithout "un."

Function .onInit
  !insertmacro DetectWine
FunctionEnd

Function un.onInit
  !insertmacro DetectWine
FunctionEnd

Section "Install"
  SetShellVarContext current
  SetOutPath "$INSTDIR"
  File /r "${DIST}\*"
  WriteUninstaller "$INSTDIR\uninstall.exe"

  CreateShortCut "$SMPROGRAMS\${APP}.lnk" "$INSTDIR\${EXE}" "" "$INSTDIR\${EXE}" 0

  !insertmacro FileType ".taskpack" "TaskPack.Pack" "TaskPack handoff" "application/vnd.taskpack+zip"
  !insertmacro FileType ".taskpack.json" "TaskPack.PackJson" "TaskPack handoff (single JSON file)" "application/vnd.taskpack+json"
  ; Explorer's name for x.taskpack.json is .json: offer the desk there, do not take .json over
  WriteRegStr HKCU "${CLASSES}\.json\OpenWithProgids" "TaskPack.PackJson" ""
  WriteRegStr HKCU "${CLASSES}\Applications\${EXE}" "FriendlyAppName" "${APP}"
  WriteRegStr HKCU "${CLASSES}\Applications\${EXE}\shell\open\command" "" '"$INSTDIR\${EXE}" "%1"'
  WriteRegStr HKCU "${CLASSES}\Applications\${EXE}\SupportedTypes" ".taskpack" ""
  WriteRegStr HKCU "${CLASSES}\Applications\${EXE}\SupportedTypes" ".taskpack.json" ""

  ; taskpack.exe on the user's PATH (a new terminal sees it)
  ReadRegStr $0 HKCU "Environment" "Path"
  Call PathWithout
  ${If} $6 == 0
    ${If} $0 == ""
      WriteRegExpandStr HKCU "Environment" "Path" "$INSTDIR"
    ${Else}
      WriteRegExpandStr HKCU "Environment" "Path" "$0;$INSTDIR"
    ${EndIf}
  ${EndIf}

  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayName" "${APP}"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "Publisher" "TaskPack Desk contributors"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayIcon" "$INSTDIR\${EXE},0"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "UninstallString" '"$INSTDIR\uninstall.exe"'
  WriteRegStr HKCU "${UNINSTALL_KEY}" "QuietUninstallString" '"$INSTDIR\uninstall.exe" /S'
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "NoModify" 1
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "NoRepair" 1

  ; tell Explorer about the new types and running programs about the new PATH
  System::Call 'shell32::SHChangeNotify(i 0x08000000, i 0, p 0, p 0)'
  SendMessage ${HWND_BROADCAST} ${WM_SETTINGCHANGE} 0 "STR:Environment" /TIMEOUT=2000
SectionEnd

Section "Uninstall"
  SetShellVarContext current
  Delete "$SMPROGRAMS\${APP}.lnk"

  !insertmacro RemoveFileType ".taskpack" "TaskPack.Pack" "application/vnd.taskpack+zip"
  !insertmacro RemoveFileType ".taskpack.json" "TaskPack.PackJson" "application/vnd.taskpack+json"
  DeleteRegValue HKCU "${CLASSES}\.json\OpenWithProgids" "TaskPack.PackJson"
  DeleteRegKey /ifempty HKCU "${CLASSES}\.json\OpenWithProgids"
  DeleteRegKey /ifempty HKCU "${CLASSES}\.json"
  DeleteRegKey HKCU "${CLASSES}\Applications\${EXE}"

  ReadRegStr $0 HKCU "Environment" "Path"
  Call un.PathWithout
  ${If} $6 == 1
    ${If} $1 == ""
      DeleteRegValue HKCU "Environment" "Path"
    ${Else}
      WriteRegExpandStr HKCU "Environment" "Path" "$1"
    ${EndIf}
  ${EndIf}

  DeleteRegKey HKCU "${UNINSTALL_KEY}"

  ; only what the installer put there: never a recursive delete of a folder a person chose
  RMDir /r "$INSTDIR\_internal"
  RMDir /r "$INSTDIR\share"
  Delete "$INSTDIR\taskpack-desk.exe"
  Delete "$INSTDIR\taskpack.exe"
  Delete "$INSTDIR\README.txt"
  Delete "$INSTDIR\uninstall.exe"
  RMDir "$INSTDIR"
  RMDir "$LOCALAPPDATA\Programs"  ; only if it is empty (we may have made it)

  System::Call 'shell32::SHChangeNotify(i 0x08000000, i 0, p 0, p 0)'
  SendMessage ${HWND_BROADCAST} ${WM_SETTINGCHANGE} 0 "STR:Environment" /TIMEOUT=2000
SectionEnd
