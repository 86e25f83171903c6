// A bearer token read from a file and read again once a period, as client-go does.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { KubeconfigError } from '../../../src/cluster/errors';
import { CachedFileTokenSource, TOKEN_FILE_LEEWAY_MS, TOKEN_FILE_PERIOD_MS } from '../../../src/cluster/tokenFile';

describe('CachedFileTokenSource (client-go\'s cached file token source)', () => {
  let dir: string;
  let now = 0;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kev-token-'));
    now = 1_000_000;
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads the file again once a period (less the leeway) has passed, trimmed', () => {
    const file = path.join(dir, 'token');
    fs.writeFileSync(file, 'first\n');
    const source = new CachedFileTokenSource(file, () => now);
    assert.equal(source.current('', 'u', 'k'), 'first');
    fs.writeFileSync(file, 'second\n');
    now += TOKEN_FILE_PERIOD_MS - TOKEN_FILE_LEEWAY_MS - 1;
    assert.equal(source.current('', 'u', 'k'), 'first', 'still cached');
    now += 2;
    assert.equal(source.current('', 'u', 'k'), 'second');
  });

  it('keeps the last token when the file goes away, and names the file when there never was one', () => {
    const file = path.join(dir, 'token');
    fs.writeFileSync(file, 'kept');
    const source = new CachedFileTokenSource(file, () => now);
    assert.equal(source.current('', 'u', 'k'), 'kept');
    fs.rmSync(file);
    now += TOKEN_FILE_PERIOD_MS;
    assert.equal(source.current('', 'u', 'k'), 'kept');
    assert.match(source.lastError ?? '', /failed to read token file ".*token": open .*: no such file or directory/);
    assert.throws(() => new CachedFileTokenSource(file, () => now).current('', 'u', 'k'), (e: Error) => e instanceof KubeconfigError && e.message.includes(file));
  });
});
