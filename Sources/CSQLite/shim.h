// The system SQLite (3.40+, with FTS5 and R*Tree), plus wrappers for the C macros Swift cannot import.
#include <sqlite3.h>

// SQLITE_TRANSIENT and SQLITE_STATIC are macros casting -1 and 0 to a function pointer; Swift cannot import them.
static inline sqlite3_destructor_type geodb_sqlite_transient(void) { return SQLITE_TRANSIENT; }
static inline sqlite3_destructor_type geodb_sqlite_static(void) { return SQLITE_STATIC; }

// sqlite3_config is variadic; Swift cannot call it. Memory statistics take a global mutex on every
// allocation (measured: 4 % of an import); geodb does not read them. Only effective before SQLite
// initializes: a no-op (SQLITE_MISUSE) when something in the process opened a database first.
static inline int geodb_sqlite_disable_memstatus(void) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }

// Every page cache starts with a bulk allocation of 20 pages (SQLITE_DEFAULT_PCACHE_INITSZ), also the
// cache of each temporary b-tree a statement opens and closes (an `IN (SELECT value FROM json_each(?))`
// list): about 170 KiB that glibc's malloc takes from the heap top and gives back to the system at every
// close (brk and page faults: a third of a search for "Vaduz"). With 0, pages are allocated one by one.
// Only effective before SQLite initializes, like the above.
static inline int geodb_sqlite_no_initial_page_cache(void) { return sqlite3_config(SQLITE_CONFIG_PAGECACHE, (void *)0, 0, 0); }

// sqlite3_db_config is variadic too. Sets one of its on/off options (SQLITE_DBCONFIG_DEFENSIVE,
// SQLITE_DBCONFIG_TRUSTED_SCHEMA, SQLITE_DBCONFIG_ENABLE_TRIGGER, …); returns SQLITE_OK or an error code.
static inline int geodb_sqlite_db_config_flag(sqlite3 *db, int option, int on) {
    int now = -1;
    int rc = sqlite3_db_config(db, option, on, &now);
    return rc != SQLITE_OK ? rc : (now == on ? SQLITE_OK : SQLITE_ERROR);
}

// Reads one of those options into *on (1 or 0) without changing it.
static inline int geodb_sqlite_db_config_get(sqlite3 *db, int option, int *on) {
    return sqlite3_db_config(db, option, -1, on);
}
