// The system SQLite (3.40+, with FTS5 and R*Tree), plus wrappers for the C macros Swift cannot import.
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer; Swift cannot import it.
static inline sqlite3_destructor_type geodb_sqlite_transient(void) { return SQLITE_TRANSIENT; }
