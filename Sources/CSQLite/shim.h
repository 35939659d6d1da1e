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

// geodb_phrase_columns(fts_table), an FTS5 auxiliary function: for the row being read, one byte per phrase
// of the MATCH expression, in the order the phrases are written in it, whose bit c is set when the phrase
// occurs in column c (columns 0 to 7). Search lists a query's matches once and learns from it which words
// each holds in which columns, where a column filter in the expression would walk the index again
// (sqlite.org/fts5.html#custom_auxiliary_functions). NULL beyond 64 phrases.
static void geodb_phrase_columns(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *context,
                                 int argc, sqlite3_value **argv) {
    (void)argc;
    (void)argv;
    int phrases = api->xPhraseCount(fts);
    unsigned char columns[64];
    if (phrases > 64) {
        sqlite3_result_null(context);
        return;
    }
    for (int phrase = 0; phrase < phrases; phrase++) {
        Fts5PhraseIter iterator;
        int column = -1;
        unsigned char bits = 0;
        int rc = api->xPhraseFirstColumn(fts, phrase, &iterator, &column);
        if (rc != SQLITE_OK) {
            sqlite3_result_error_code(context, rc);
            return;
        }
        for (; column >= 0; api->xPhraseNextColumn(fts, &iterator, &column)) {
            if (column < 8) bits |= (unsigned char)(1u << column);
        }
        columns[phrase] = bits;
    }
    sqlite3_result_blob(context, columns, phrases, SQLITE_TRANSIENT);
}

// The FTS5 API of a connection, the pointer that `SELECT fts5(?1)` gives (sqlite.org/fts5.html#extending_fts5);
// NULL when the connection has no FTS5 of version 2 or later. Valid while the connection is open.
static inline fts5_api *geodb_fts5_api(sqlite3 *db) {
    fts5_api *api = 0;
    sqlite3_stmt *statement = 0;
    if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &statement, 0) != SQLITE_OK) return 0;
    sqlite3_bind_pointer(statement, 1, (void *)&api, "fts5_api_ptr", 0);
    sqlite3_step(statement);
    if (sqlite3_finalize(statement) != SQLITE_OK) return 0;
    return api != 0 && api->iVersion >= 2 ? api : 0;
}

// Registers geodb_phrase_columns on a connection.
static inline int geodb_register_phrase_columns(sqlite3 *db) {
    fts5_api *api = geodb_fts5_api(db);
    if (api == 0) return SQLITE_ERROR;
    return api->xCreateFunction(api, "geodb_phrase_columns", 0, geodb_phrase_columns, 0);
}

// Receives each token geodb_fts5_tokenize makes: its bytes (not NUL-terminated) and their count.
typedef void (*geodb_token_sink)(void *context, const char *token, int length);

struct geodb_token_forwarding {
    void *context;
    geodb_token_sink sink;
};

static int geodb_forward_token(void *context, int flags, const char *token, int length, int start, int end) {
    (void)flags;
    (void)start;
    (void)end;
    struct geodb_token_forwarding *forwarding = (struct geodb_token_forwarding *)context;
    forwarding->sink(forwarding->context, token, length);
    return SQLITE_OK;
}

// Tokenizes `text` as a query (FTS5_TOKENIZE_QUERY) with the tokenizer `name` of `api` created with `arguments`
// (as a table's `tokenize = 'name arg …'` creates it), giving each token to `sink`. A tokenizer instance is
// made for the call: unicode61's keeps a buffer it writes each token into, so one instance cannot serve two
// threads at once.
static inline int geodb_fts5_tokenize(fts5_api *api, const char *name, const char **arguments, int argumentCount,
                                      const char *text, int length, void *context, geodb_token_sink sink) {
    void *userData = 0;
    fts5_tokenizer methods;
    Fts5Tokenizer *tokenizer = 0;
    int rc = api->xFindTokenizer(api, name, &userData, &methods);
    if (rc != SQLITE_OK) return rc;
    rc = methods.xCreate(userData, arguments, argumentCount, &tokenizer);
    if (rc != SQLITE_OK) return rc;
    struct geodb_token_forwarding forwarding = {context, sink};
    rc = methods.xTokenize(tokenizer, &forwarding, FTS5_TOKENIZE_QUERY, text, length, geodb_forward_token);
    methods.xDelete(tokenizer);
    return rc;
}
