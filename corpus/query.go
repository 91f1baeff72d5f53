package corpus

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// QueryTables are the tables legal_sql may read.
var QueryTables = []string{"legislatie", "jurisprudenta"}

// Limits of a legal_sql query.
const (
	MaxRows = 100
	// MaxResultBytes bounds the text of a query's values, all rows together: many rows
	// of full texts are cut there, not carried whole.
	MaxResultBytes = 4 << 20
	// MaxValueBytes bounds each value a query builds or reads (SQLITE_LIMIT_LENGTH):
	// group_concat over a whole table, or replace() growing a text, is refused as soon
	// as its value passes it, before it takes the memory. The corpus's longest text is
	// under 400 KB.
	MaxValueBytes = 4 << 20
	maxQueryChars  = 10000
	// DefaultQueryTimeout bounds one query; the database interrupts it then.
	DefaultQueryTimeout = 5 * time.Second
)

// queryFunctions are the SQL functions a query may call: text, number, date and
// aggregate functions that neither write nor load code. Those that build texts
// (group_concat, replace, ||) are bounded by SQLITE_LIMIT_LENGTH (queryLimits).
var queryFunctions = []string{
	"abs", "avg", "coalesce", "count", "date", "glob", "group_concat", "ifnull", "iif", "instr", "julianday",
	"length", "like", "lower", "ltrim", "max", "min", "nullif", "replace", "round", "rtrim", "strftime",
	"substr", "substring", "sum", "total", "trim", "typeof", "unicode", "upper",
}

// queryLimits are the SQLite limits of a legal_sql connection (sqlite3_limit), which
// bound what one query may hold in memory and compile, on that connection alone: a
// process-wide heap limit would also bound the embedded FerretDB's SQLite.
var queryLimits = []struct{ id, value int }{
	{sqlite3.SQLITE_LIMIT_LENGTH, MaxValueBytes},
	{sqlite3.SQLITE_LIMIT_SQL_LENGTH, 4 * maxQueryChars},
	{sqlite3.SQLITE_LIMIT_COLUMN, 100},
	{sqlite3.SQLITE_LIMIT_EXPR_DEPTH, 100},
	{sqlite3.SQLITE_LIMIT_COMPOUND_SELECT, 10},
	{sqlite3.SQLITE_LIMIT_VDBE_OP, 25_000},
	{sqlite3.SQLITE_LIMIT_FUNCTION_ARG, 16},
	{sqlite3.SQLITE_LIMIT_ATTACHED, 0},
	{sqlite3.SQLITE_LIMIT_LIKE_PATTERN_LENGTH, 1000},
	{sqlite3.SQLITE_LIMIT_WORKER_THREADS, 0},
}

// ErrRefused wraps every reason a query is refused; the message says which.
var ErrRefused = errors.New("query refused")

// QueryResult is what a read-only query returned.
type QueryResult struct {
	Columns []string         `json:"columns"`
	Rows    []map[string]any `json:"rows"`
	// Truncated is set when the query had more than MaxRows rows or more than
	// MaxResultBytes of text.
	Truncated bool `json:"truncated"`
}

// Query runs one read-only SELECT that reads only table, within timeout. The read-only
// guarantee comes from the database engine: the connection is opened read-only and
// immutable, and an authorizer lets the statement compile only if it reads table and
// calls only queryFunctions, so writes, schema changes, ATTACH, PRAGMA, recursive
// queries, other tables and extension loading are refused when the statement is
// prepared. A statement check before that gives clearer errors for the common
// mistakes. The connection's queryLimits bound what the query holds: a value past
// MaxValueBytes is refused. Refusals wrap ErrRefused; a query that runs out of time is
// interrupted.
func (s *Store) Query(ctx context.Context, query, table string, timeout time.Duration) (QueryResult, error) {
	if !slices.Contains(QueryTables, table) {
		return QueryResult{}, fmt.Errorf("%w: table must be one of %s", ErrRefused, strings.Join(QueryTables, ", "))
	}
	if err := checkStatement(query); err != nil {
		return QueryResult{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	conn, err := s.queries.Conn(ctx)
	if err != nil {
		return QueryResult{}, err
	}
	defer conn.Close()
	for _, l := range queryLimits {
		if _, err := sqlite.Limit(conn, l.id, l.value); err != nil {
			return QueryResult{}, fmt.Errorf("limit the query: %w", err)
		}
	}
	var denied []string
	err = conn.Raw(func(dc any) error {
		reg, ok := dc.(sqlite.AuthorizerRegisterer)
		if !ok {
			return errors.New("the SQLite driver has no authorizer")
		}
		return reg.RegisterAuthorizer(readOnly(table, &denied))
	})
	if err != nil {
		return QueryResult{}, err
	}
	rows, err := conn.QueryContext(ctx, query)
	if err != nil {
		return QueryResult{}, queryError(ctx, err, denied, table)
	}
	defer rows.Close()
	res := QueryResult{Rows: []map[string]any{}}
	if res.Columns, err = rows.Columns(); err != nil {
		return QueryResult{}, err
	}
	size := 0
	for rows.Next() {
		if len(res.Rows) == MaxRows || size >= MaxResultBytes {
			res.Truncated = true
			break
		}
		vals := make([]any, len(res.Columns))
		ptrs := make([]any, len(vals))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return QueryResult{}, queryError(ctx, err, denied, table)
		}
		row := make(map[string]any, len(vals))
		for i, v := range vals {
			if b, ok := v.([]byte); ok {
				v = string(b)
			}
			if text, ok := v.(string); ok {
				if len(text) > MaxResultBytes-size {
					text, res.Truncated = strings.ToValidUTF8(text[:max(MaxResultBytes-size, 0)], ""), true
				}
				size += len(text)
				v = text
			}
			row[res.Columns[i]] = v
		}
		res.Rows = append(res.Rows, row)
	}
	if err := rows.Err(); err != nil {
		return QueryResult{}, queryError(ctx, err, denied, table)
	}
	return res, nil
}

// readOnly is the authorizer of a query on table: it allows SELECT, reading table's
// columns and calling queryFunctions, and records what it denies.
func readOnly(table string, denied *[]string) sqlite.AuthorizerFn {
	return func(action sqlite.AuthorizerActionCode, arg1, arg2, _, _ string) sqlite.AuthorizerReturnCode {
		switch {
		case action == sqlite.AuthSelect:
			return sqlite.AuthorizerOK
		case action == sqlite.AuthRead && strings.EqualFold(arg1, table):
			return sqlite.AuthorizerOK
		case action == sqlite.AuthFunction && slices.Contains(queryFunctions, strings.ToLower(arg2)):
			return sqlite.AuthorizerOK
		}
		*denied = append(*denied, describe(action, arg1, arg2))
		return sqlite.AuthorizerDeny
	}
}

// describe names a denied operation for the error message.
func describe(action sqlite.AuthorizerActionCode, arg1, arg2 string) string {
	switch action {
	case sqlite.AuthRead:
		return "reading table " + arg1
	case sqlite.AuthFunction:
		return "calling " + arg2 + "()"
	case sqlite.AuthPragma:
		return "PRAGMA " + arg1
	case sqlite.AuthRecursive:
		return "a recursive query"
	case sqlite.AuthAttach, sqlite.AuthDetach:
		return "ATTACH or DETACH"
	case sqlite.AuthInsert, sqlite.AuthUpdate, sqlite.AuthDelete:
		return "writing to " + arg1
	case sqlite.AuthTransaction, sqlite.AuthSavepoint:
		return "transactions"
	}
	return "changing the database"
}

func queryError(ctx context.Context, err error, denied []string, table string) error {
	var se *sqlite.Error
	switch {
	case errors.As(err, &se) && se.Code() == sqlite3.SQLITE_TOOBIG:
		return fmt.Errorf("%w: a value grew past %d bytes, the most a query may build or read; aggregate less, or cut texts with substr()", ErrRefused, MaxValueBytes)
	case len(denied) > 0:
		return fmt.Errorf("%w: only reading table %s with plain functions is allowed; not %s", ErrRefused, table, strings.Join(slices.Compact(denied), ", "))
	case ctx.Err() != nil:
		return fmt.Errorf("%w: the query took too long and was stopped", ErrRefused)
	}
	return fmt.Errorf("query failed: %w", err)
}

// checkStatement refuses what is not one SELECT (or WITH ... SELECT) statement.
func checkStatement(q string) error {
	switch {
	case strings.TrimSpace(q) == "":
		return fmt.Errorf("%w: the query is empty", ErrRefused)
	case len([]rune(q)) > maxQueryChars:
		return fmt.Errorf("%w: the query is longer than %d characters", ErrRefused, maxQueryChars)
	}
	stmts, first := scanStatements(q)
	if stmts > 1 {
		return fmt.Errorf("%w: send one statement at a time", ErrRefused)
	}
	if first != "SELECT" && first != "WITH" {
		return fmt.Errorf("%w: only SELECT statements are allowed", ErrRefused)
	}
	return nil
}

// scanStatements counts the statements in q (text after a semicolon, outside strings,
// identifiers and comments) and returns the first keyword, upper-cased.
func scanStatements(q string) (int, string) {
	rs := []rune(q)
	count, first := 0, ""
	inStmt := false
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == '-' && i+1 < len(rs) && rs[i+1] == '-':
			for i < len(rs) && rs[i] != '\n' {
				i++
			}
		case r == '/' && i+1 < len(rs) && rs[i+1] == '*':
			i += 2
			for i+1 < len(rs) && !(rs[i] == '*' && rs[i+1] == '/') {
				i++
			}
			i++
		case r == ';':
			inStmt = false
		case unicode.IsSpace(r):
		default:
			if !inStmt {
				inStmt = true
				count++
				if count == 1 {
					j := i
					for j < len(rs) && (unicode.IsLetter(rs[j]) || rs[j] == '_') {
						j++
					}
					first = strings.ToUpper(string(rs[i:j]))
				}
			}
			if r == '\'' || r == '"' || r == '`' || r == '[' {
				end := map[rune]rune{'\'': '\'', '"': '"', '`': '`', '[': ']'}[r]
				for i++; i < len(rs) && rs[i] != end; i++ {
				}
			}
		}
	}
	return count, first
}

// openQueries opens the pool that Query uses: read-only and immutable, so that nothing,
// not even a journal, is written to the file.
func openQueries(path string) (*sql.DB, error) {
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro&immutable=1")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(4)
	return db, nil
}
