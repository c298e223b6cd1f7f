/**
 * The sessions' answers kept in the process (src/server/store/session-answers.ts): bounded, never kept
 * from inside a transaction, and forgotten when another connection commits or the server's URL changes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { nextMillisecond } from '../support/next-millisecond.js';
import { openDatabase } from '../../src/server/store/database.js';
import type { SqliteDatabase } from '../../src/server/ports/store.js';
import { sessionAnswer, sessionAnswers } from '../../src/server/store/session-answers.js';

const url = 'http://127.0.0.1:8080/v1/sessions/';
const answer = (id: string) => sessionAnswer(id, 'ws_1', 1, `{"id":"${id}","title":"Caf\u00e9"}`, url);
const opened: SqliteDatabase[] = [];
const folders: string[] = [];

function database(file = ':memory:'): SqliteDatabase {
  const db = openDatabase(file);
  opened.push(db);
  return db;
}

afterEach(() => {
  opened.splice(0).forEach((db) => db.close());
  folders.splice(0).forEach((folder) => rmSync(folder, { recursive: true, force: true }));
});

describe('an answer', () => {
  test('is the record with its two URLs before the closing brace, after a comma, in UTF-8', () => {
    const { listed } = answer('ses_1');
    expect(listed.subarray(0, 1).toString()).toBe(',');
    expect(JSON.parse(listed.subarray(1).toString('utf8'))).toEqual({
      id: 'ses_1',
      title: 'Caf\u00e9',
      events_url: `${url}ses_1/events`,
      outcomes_url: `${url}ses_1/outcomes`,
    });
  });
});

describe('the answers kept', () => {
  test('past the capacity, the keeping starts afresh', () => {
    const answers = sessionAnswers(database(), 2);
    answers.read(url);
    ['ses_1', 'ses_2'].forEach((id) => answers.keep(answer(id)));
    expect(answers.get('ses_1')?.id).toBe('ses_1');
    answers.keep(answer('ses_3'));
    expect(answers.get('ses_1')).toBeUndefined();
    expect(answers.get('ses_2')).toBeUndefined();
    expect(answers.get('ses_3')?.id).toBe('ses_3');
  });

  test('with a capacity of 0 nothing is kept', () => {
    const answers = sessionAnswers(database(), 0);
    answers.read(url);
    answers.keep(answer('ses_1'));
    expect(answers.get('ses_1')).toBeUndefined();
  });

  test('an answer made inside a transaction is not kept: the transaction may roll back', () => {
    const db = database();
    const answers = sessionAnswers(db);
    answers.read(url);
    db.transaction(() => answers.keep(answer('ses_1')))();
    expect(answers.get('ses_1')).toBeUndefined();
  });

  test('a read for another URL forgets them all', () => {
    const answers = sessionAnswers(database());
    answers.read(url);
    answers.keep(answer('ses_1'));
    answers.read(url);
    expect(answers.get('ses_1')).toBeDefined();
    answers.read('http://127.0.0.1:9090/v1/sessions/');
    expect(answers.get('ses_1')).toBeUndefined();
  });

  test("another connection's commit is seen by the next read a millisecond later, which forgets them all", async () => {
    const folder = mkdtempSync(join(tmpdir(), 'boardkit-answers-'));
    folders.push(folder);
    const file = join(folder, 'store.db');
    const answers = sessionAnswers(database(file));
    answers.read(url);
    answers.keep(answer('ses_1'));
    database(file).prepare("INSERT INTO meta (key, value) VALUES ('written_elsewhere', '1')").run();
    await nextMillisecond();
    answers.read(url);
    expect(answers.get('ses_1')).toBeUndefined();
  });
});
