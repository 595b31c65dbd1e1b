-- A game log written with schema version 1 (the first layout: no games.finished_ms, no
-- games.damage, no games_by_status index), as `sqlite3 FILE .dump` prints it. The migration tests
-- build a file from it and open it with the current store: it must be upgraded in place.
--   g1: finished, with its seats and actions; g2: running, with actions; g3: open, one seat
--   taken; g4 was deleted (sqlite_sequence remembers it, so its number is never given again).
-- Token hashes are SHA-256 of "ann-token", "bob-token", "cid-token", "dee-token".
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE schema_version (version INTEGER NOT NULL);
INSERT INTO schema_version VALUES(1);
CREATE TABLE games (
  number          INTEGER PRIMARY KEY AUTOINCREMENT,
  name            TEXT    NOT NULL,
  rule_set        TEXT    NOT NULL,
  tileset_id      TEXT    NOT NULL,
  tileset_version INTEGER NOT NULL,
  seats           INTEGER NOT NULL,
  seed            INTEGER NOT NULL,
  draw_order      TEXT    NOT NULL DEFAULT '',
  status          TEXT    NOT NULL,
  created_ms      INTEGER NOT NULL,
  updated_ms      INTEGER NOT NULL,
  result          TEXT    NOT NULL DEFAULT ''
);
INSERT INTO games VALUES(1,'Friday game','the-city','the-city',1,2,12345,'3 1 2 0','finished',1700000000000,1700000360000,'{"scores":[31,24],"winners":[0],"end":"walls"}');
INSERT INTO games VALUES(2,'Open table','the-city','the-city',1,2,-6917529027641081856,'2 0 3 1','running',1700000400000,1700000460000,'');
INSERT INTO games VALUES(3,'Lobby','the-city','the-city',1,4,77,'','open',1700000500000,1700000500000,'');
CREATE TABLE seats (
  game        INTEGER NOT NULL REFERENCES games (number) ON DELETE CASCADE,
  seat        INTEGER NOT NULL,
  player_name TEXT    NOT NULL,
  token_hash  BLOB    NOT NULL,
  PRIMARY KEY (game, seat)
) WITHOUT ROWID;
INSERT INTO seats VALUES(1,0,'ann',X'dfa603dfa2ef13eb23a30434d7feef5de20829cb6c5181623c8028a74eaf4971');
INSERT INTO seats VALUES(1,1,'bob',X'97dd3707015dcf069cf73022ed7173b1165db6eff24b441cb57fd069a8c4e525');
INSERT INTO seats VALUES(2,0,'cid',X'2a4bccf4a83c1346bd36f794701a8c87079aa9818accf995309d8501e27be04a');
INSERT INTO seats VALUES(2,1,'dee',X'd6036da2dc8fbffa9125c4a8b6672b67ae2ecef029fe197937bd85ab80bb32da');
INSERT INTO seats VALUES(3,0,'ann',X'dfa603dfa2ef13eb23a30434d7feef5de20829cb6c5181623c8028a74eaf4971');
CREATE TABLE actions (
  position   INTEGER PRIMARY KEY,
  game       INTEGER NOT NULL REFERENCES games (number) ON DELETE CASCADE,
  sequence   INTEGER NOT NULL,
  seat       INTEGER NOT NULL,
  action     TEXT    NOT NULL,
  state_hash INTEGER NOT NULL,
  time_ms    INTEGER NOT NULL
);
INSERT INTO actions VALUES(1,1,1,-1,'draw 3',1111,1700000010000);
INSERT INTO actions VALUES(2,2,1,-1,'draw 2',-8070450532247928832,1700000410000);
INSERT INTO actions VALUES(3,1,2,0,'place 0 1 2',2222,1700000020000);
INSERT INTO actions VALUES(4,1,3,0,'follower a',3333,1700000030000);
INSERT INTO actions VALUES(5,2,2,0,'place 1 0 0',4444,1700000420000);
INSERT INTO actions VALUES(6,1,4,-1,'draw 1',5555,1700000040000);
INSERT INTO actions VALUES(7,2,3,0,'follower none',6666,1700000430000);
DELETE FROM sqlite_sequence;
INSERT INTO sqlite_sequence VALUES('games',4);
CREATE UNIQUE INDEX actions_by_game ON actions (game, sequence);
COMMIT;
