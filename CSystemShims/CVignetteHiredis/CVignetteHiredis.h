#include <hiredis/hiredis.h>
#include <sys/time.h>

/* The context's error message: `errstr` is a char array, which Swift imports as a tuple. */
static inline const char *vgn_redis_errstr(const redisContext *context) {
    return context->errstr;
}
