/* bcryptprimitives.dll for Wine 8, which lacks it: ProcessPrng, the one export Rust's
 * standard library (pydantic-core) calls, over advapi32's RtlGenRandom
 * (SystemFunction036). Real Windows 10/11 ships its own; this is needed under Wine only. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    /* RtlGenRandom takes a ULONG: feed it in pieces below 4 GiB */
    while (length > 0) {
        ULONG piece = length > 0x40000000u ? 0x40000000u : (ULONG)length;
        if (!SystemFunction036(data, piece))
            return FALSE;
        data += piece;
        length -= piece;
    }
    return TRUE;
}

BOOL WINAPI DllMain(HINSTANCE instance, DWORD reason, LPVOID reserved)
{
    (void)instance; (void)reason; (void)reserved;
    return TRUE;
}
