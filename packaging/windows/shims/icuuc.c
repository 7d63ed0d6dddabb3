/* icuuc.dll for Wine 8, which lacks Windows 10's system ICU: the ucnv_* functions Qt6Core
 * imports, each answering "no converter" (ucnv_open fails, the list of converters is
 * empty). Qt then converts with its own built-in codecs (UTF-8/16/32, Latin-1, the
 * system code page), as on a Windows without ICU. Needed under Wine only.
 * The list is what `x86_64-w64-mingw32-objdump -p Qt6Core.dll` shows under icuuc.dll. */
#include <stddef.h>
#include <stdint.h>

#define EXPORT __declspec(dllexport)
typedef int32_t UErrorCode;      /* > 0 is a failure */
typedef uint16_t UChar;
typedef struct UConverter UConverter;
typedef void (*Callback)(void);

static void no_converter(UErrorCode *err)
{
    if (err != NULL && *err <= 0)
        *err = 4; /* U_FILE_ACCESS_ERROR: what ICU says for a converter it has no data for */
}

EXPORT UConverter *ucnv_open(const char *name, UErrorCode *err)
{
    (void)name;
    no_converter(err);
    return NULL;
}

EXPORT void ucnv_close(UConverter *cnv) { (void)cnv; }
EXPORT void ucnv_reset(UConverter *cnv) { (void)cnv; }
EXPORT int8_t ucnv_getMaxCharSize(const UConverter *cnv) { (void)cnv; return 1; }
EXPORT int32_t ucnv_countAvailable(void) { return 0; }
EXPORT const char *ucnv_getAvailableName(int32_t n) { (void)n; return NULL; }

EXPORT const char *ucnv_getName(const UConverter *cnv, UErrorCode *err)
{
    (void)cnv;
    no_converter(err);
    return NULL;
}

EXPORT const char *ucnv_getStandardName(const char *name, const char *standard, UErrorCode *err)
{
    (void)name; (void)standard;
    no_converter(err);
    return NULL;
}

EXPORT void ucnv_getToUCallBack(const UConverter *cnv, Callback *action, const void **context)
{
    (void)cnv;
    if (action) *action = NULL;
    if (context) *context = NULL;
}

EXPORT void ucnv_getFromUCallBack(const UConverter *cnv, Callback *action, const void **context)
{
    ucnv_getToUCallBack(cnv, action, context);
}

EXPORT void ucnv_setToUCallBack(UConverter *cnv, Callback action, const void *context,
                                Callback *old_action, const void **old_context, UErrorCode *err)
{
    (void)action; (void)context;
    ucnv_getToUCallBack(cnv, old_action, old_context);
    no_converter(err);
}

EXPORT void ucnv_setFromUCallBack(UConverter *cnv, Callback action, const void *context,
                                  Callback *old_action, const void **old_context, UErrorCode *err)
{
    ucnv_setToUCallBack(cnv, action, context, old_action, old_context, err);
}

EXPORT void ucnv_toUnicode(UConverter *cnv, UChar **target, const UChar *target_limit,
                           const char **source, const char *source_limit, int32_t *offsets,
                           int8_t flush, UErrorCode *err)
{
    (void)cnv; (void)target; (void)target_limit; (void)source; (void)source_limit;
    (void)offsets; (void)flush;
    no_converter(err);
}

EXPORT void ucnv_fromUnicode(UConverter *cnv, char **target, const char *target_limit,
                             const UChar **source, const UChar *source_limit, int32_t *offsets,
                             int8_t flush, UErrorCode *err)
{
    (void)cnv; (void)target; (void)target_limit; (void)source; (void)source_limit;
    (void)offsets; (void)flush;
    no_converter(err);
}

EXPORT int32_t ucnv_toUCountPending(const UConverter *cnv, UErrorCode *err)
{
    (void)cnv;
    no_converter(err);
    return 0;
}

EXPORT int32_t ucnv_fromUCountPending(const UConverter *cnv, UErrorCode *err)
{
    return ucnv_toUCountPending(cnv, err);
}

EXPORT void ucnv_cbToUWriteUChars(void *args, const UChar *source, int32_t length,
                                  int32_t offset_index, UErrorCode *err)
{
    (void)args; (void)source; (void)length; (void)offset_index;
    no_converter(err);
}

EXPORT void ucnv_cbFromUWriteUChars(void *args, const UChar **source, const UChar *source_limit,
                                    int32_t offset_index, UErrorCode *err)
{
    (void)args; (void)source; (void)source_limit; (void)offset_index;
    no_converter(err);
}

EXPORT void UCNV_TO_U_CALLBACK_SUBSTITUTE(const void *context, void *args, const char *units,
                                          int32_t length, int32_t reason, UErrorCode *err)
{
    (void)context; (void)args; (void)units; (void)length; (void)reason;
    no_converter(err);
}

EXPORT void UCNV_FROM_U_CALLBACK_SUBSTITUTE(const void *context, void *args, const UChar *units,
                                            int32_t length, int32_t code_point, int32_t reason,
                                            UErrorCode *err)
{
    (void)context; (void)args; (void)units; (void)length; (void)code_point; (void)reason;
    no_converter(err);
}
