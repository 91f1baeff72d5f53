INSERT INTO legislatie DEFAULT VALUES
-- @@
DELETE FROM legislatie
-- @@
DROP TABLE legislatie
-- @@
INSERT INTO jurisprudenta DEFAULT VALUES
-- @@
DELETE FROM jurisprudenta
-- @@
DROP TABLE jurisprudenta
-- @@
INSERT INTO sources DEFAULT VALUES
-- @@
DELETE FROM sources
-- @@
DROP TABLE sources
-- @@
INSERT INTO meta DEFAULT VALUES
-- @@
DELETE FROM meta
-- @@
DROP TABLE meta
-- @@
INSERT INTO legislatie_fts DEFAULT VALUES
-- @@
DELETE FROM legislatie_fts
-- @@
DROP TABLE legislatie_fts
-- @@
INSERT INTO legislatie_fts_data DEFAULT VALUES
-- @@
DELETE FROM legislatie_fts_data
-- @@
DROP TABLE legislatie_fts_data
-- @@
INSERT INTO jurisprudenta_fts_idx DEFAULT VALUES
-- @@
DELETE FROM jurisprudenta_fts_idx
-- @@
DROP TABLE jurisprudenta_fts_idx
-- @@
INSERT INTO sqlite_master DEFAULT VALUES
-- @@
DELETE FROM sqlite_master
-- @@
DROP TABLE sqlite_master
-- @@
INSERT INTO sqlite_schema DEFAULT VALUES
-- @@
DELETE FROM sqlite_schema
-- @@
DROP TABLE sqlite_schema
-- @@
UPDATE legislatie SET text = 'x' WHERE doc_id LIKE 'it/%'
-- @@
UPDATE legislatie SET in_force = 0
-- @@
REPLACE INTO legislatie (doc_id) VALUES ('x')
-- @@
INSERT INTO legislatie SELECT * FROM legislatie
-- @@
INSERT OR REPLACE INTO meta VALUES ('archive_sha256', 'x')
-- @@
INSERT INTO legislatie (doc_id) VALUES ('x') ON CONFLICT DO NOTHING
-- @@
ALTER TABLE legislatie ADD COLUMN evil TEXT
-- @@
ALTER TABLE legislatie RENAME TO gone
-- @@
CREATE TABLE evil (x)
-- @@
CREATE TEMP TABLE evil AS SELECT * FROM legislatie
-- @@
CREATE INDEX evil ON legislatie (text)
-- @@
CREATE VIEW evil AS SELECT * FROM legislatie
-- @@
CREATE TEMP VIEW v AS SELECT 1
-- @@
CREATE TRIGGER evil AFTER INSERT ON legislatie BEGIN DELETE FROM legislatie; END
-- @@
CREATE TEMP TRIGGER t BEFORE DELETE ON legislatie BEGIN SELECT 1; END
-- @@
CREATE VIRTUAL TABLE evil USING fts5(x)
-- @@
DROP INDEX legislatie_article
-- @@
DROP VIEW IF EXISTS v
-- @@
DROP TRIGGER IF EXISTS t
-- @@
REINDEX
-- @@
ANALYZE
-- @@
VACUUM
-- @@
VACUUM INTO '/tmp/lexflow-stolen.db'
-- @@
BEGIN; DELETE FROM legislatie; COMMIT
-- @@
BEGIN IMMEDIATE
-- @@
SAVEPOINT s
-- @@
RELEASE s
-- @@
ROLLBACK
-- @@
ATTACH DATABASE '/tmp/lexflow-evil.db' AS evil
-- @@
ATTACH ':memory:' AS m
-- @@
DETACH DATABASE main
-- @@
SELECT * FROM legislatie; ATTACH ':memory:' AS m
-- @@
PRAGMA writable_schema = ON
-- @@
PRAGMA journal_mode = DELETE
-- @@
PRAGMA query_only = OFF
-- @@
PRAGMA table_info(legislatie)
-- @@
PRAGMA database_list
-- @@
PRAGMA main.user_version = 7
-- @@
pragma integrity_check
-- @@
PRAGMA compile_options
-- @@
SELECT * FROM pragma_table_info('legislatie')
-- @@
SELECT name FROM pragma_function_list
-- @@
SELECT * FROM pragma_database_list
-- @@
SELECT 1; DELETE FROM legislatie
-- @@
SELECT doc_id FROM legislatie;DROP TABLE legislatie
-- @@
SELECT doc_id FROM legislatie; -- harmless?
DROP TABLE legislatie
-- @@
SELECT doc_id FROM legislatie /* ; */ ; DELETE FROM legislatie
-- @@
SELECT doc_id FROM legislatie; SELECT doc_id FROM legislatie
-- @@
/* SELECT */ DELETE FROM legislatie
-- @@
-- SELECT
DELETE FROM legislatie
-- @@
SELECT 'a;b' AS x; UPDATE legislatie SET text = ''
-- @@
SELECT "doc_id" FROM legislatie;


PRAGMA writable_schema=1
-- @@
WITH x AS (SELECT 1) DELETE FROM legislatie
-- @@
WITH x AS (SELECT 1) INSERT INTO legislatie (doc_id) SELECT * FROM x
-- @@
WITH x AS (SELECT 1) UPDATE legislatie SET text = 'x'
-- @@
EXPLAIN DELETE FROM legislatie
-- @@
EXPLAIN QUERY PLAN SELECT * FROM legislatie
-- @@

-- @@
   
	  
-- @@
-- only a comment
-- @@
/* only a comment */
-- @@
ＳＥＬＥＣＴ * FROM legislatie
-- @@
SΕLECT * FROM legislatie
-- @@
SELECT * FROM legislatie; DELETE FROM legislatie
-- @@
DEL​ETE FROM legislatie
-- @@
SELECT * FROM ｌｅｇｉｓｌａｔｉｅ
-- @@
﻿DELETE FROM legislatie
-- @@
SELECT * FROM legislatie ; DROP TABLE legislatie
-- @@
SELECT * FROM "legislatie​"
-- @@
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM r) SELECT count(*) FROM r
-- @@
WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM r LIMIT 1000000000) SELECT max(n) FROM r
-- @@
WITH RECURSIVE a(x) AS (SELECT doc_id FROM legislatie UNION SELECT x||x FROM a) SELECT length(x) FROM a
-- @@
SELECT count(*) FROM legislatie a, legislatie b, legislatie c, legislatie d
-- @@
SELECT count(*) FROM legislatie a JOIN legislatie b ON a.text LIKE '%'||b.title||'%'
-- @@
SELECT load_extension('/tmp/evil.so')
-- @@
SELECT load_extension('libc.so.6', 'system')
-- @@
SELECT randomblob(1000000000)
-- @@
SELECT zeroblob(2000000000)
-- @@
SELECT printf('%.*c', 1000000000, 'x')
-- @@
SELECT hex(randomblob(100))
-- @@
SELECT sqlite_version()
-- @@
SELECT readfile('/etc/passwd')
-- @@
SELECT writefile('/tmp/x', 'y')
-- @@
SELECT fts5(NULL)
-- @@
SELECT char(65)
-- @@
SELECT quote(text) FROM legislatie
-- @@
SELECT replace(replace(replace(text, 'a', text), 'e', text), 'i', text) FROM legislatie
-- @@
SELECT sqlite_compileoption_used('ENABLE_LOAD_EXTENSION')
-- @@
SELECT changes()
-- @@
SELECT last_insert_rowid()
-- @@
SELECT * FROM jurisprudenta
-- @@
SELECT * FROM sqlite_master
-- @@
SELECT * FROM sqlite_schema
-- @@
SELECT * FROM sqlite_temp_master
-- @@
SELECT * FROM sources
-- @@
SELECT value FROM meta
-- @@
SELECT * FROM legislatie_fts WHERE legislatie_fts MATCH 'a'
-- @@
SELECT * FROM legislatie_fts_data
-- @@
SELECT l.doc_id FROM legislatie l JOIN jurisprudenta j ON 1
-- @@
SELECT doc_id FROM legislatie UNION SELECT doc_id FROM jurisprudenta
-- @@
SELECT (SELECT count(*) FROM jurisprudenta) FROM legislatie
-- @@
SELECT * FROM legislatie WHERE doc_id IN (SELECT name FROM sqlite_master)
-- @@
WITH x AS (SELECT * FROM jurisprudenta) SELECT * FROM x
-- @@
SELECT * FROM main.sqlite_master
-- @@
SELECT * FROM temp.sqlite_master
-- @@
SELECT * FROM generate_series(1, 1000000000)
-- @@
SELECT * FROM json_each('[1,2]')
-- @@
SELECT * FROM dbstat
