/**
 * The built CLI against files that are not what a config should name: devices, FIFOs, folders,
 * symbolic link loops, huge files, and names and contents carrying terminal escape sequences.
 * Every run has a timeout, so a read that blocks fails the test instead of hanging it.
 * Run after `npm run build`, as cli.test.ts.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';

const ROOT = join(__dirname, '../..');
const CLI = join(ROOT, 'dist/cli/main.js');
const tmp = mkdtempSync(join(tmpdir(), 'shardwise-hostile-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

const posix = process.platform !== 'win32';
const skip = posix ? false : 'FIFOs, devices and symbolic links as POSIX has them';
const ESC = '\u001b';

interface Run {
  code: number;
  out: string;
  err: string;
}

/** The CLI, killed after 20 s: a hang is a failure with a message, not a stuck test run. */
function run(args: string[], cwd = tmp): Run {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', timeout: 20_000, killSignal: 'SIGKILL' });
  assert.equal(r.error, undefined, `shardwise ${args.join(' ')} did not finish: ${r.error?.message}`);
  assert.equal(r.signal, null, `shardwise ${args.join(' ')} was killed (${r.signal}): it blocked or ran away`);
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

/** No byte of the output is a raw control or text-reordering character. */
function assertClean(r: Run, what: string): void {
  for (const [name, s] of [['stdout', r.out], ['stderr', r.err]] as const) {
    assert.ok(!s.includes(ESC), `${what}: a raw ESC on ${name}: ${JSON.stringify(s.slice(0, 400))}`);
    assert.ok(!/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(s), `${what}: a raw control character on ${name}: ${JSON.stringify(s.slice(0, 400))}`);
  }
}

function accelerate(dsFile: string): string {
  return `compute_environment: LOCAL_MACHINE\ndistributed_type: DEEPSPEED\nnum_processes: 8\ndeepspeed_config:\n  deepspeed_config_file: ${dsFile}\n`;
}

/** A folder with one of each kind of thing that is not a readable regular file. */
function hostileDir(name: string): string {
  const dir = join(tmp, name);
  mkdirSync(dir);
  execFileSync('mkfifo', [join(dir, 'fifo.json')]);
  mkdirSync(join(dir, 'folder.json'));
  symlinkSync('loop_b.json', join(dir, 'loop_a.json'));
  symlinkSync('loop_a.json', join(dir, 'loop_b.json'));
  // 2 GB that take no disk: a sparse file.
  const fd = openSync(join(dir, 'huge.json'), 'w');
  closeSync(fd);
  truncateSync(join(dir, 'huge.json'), 2 * 1024 ** 3);
  return dir;
}

const CASES: { label: string; ref: (dir: string) => string; reason: RegExp }[] = [
  { label: 'a device (/dev/zero)', ref: () => '/dev/zero', reason: /`\/dev\/zero` cannot be read: it is a device, not a regular file/ },
  { label: 'a FIFO', ref: () => 'fifo.json', reason: /`fifo\.json` cannot be read: `[^`]*fifo\.json` is not a regular file \(a FIFO\)/ },
  { label: 'a directory', ref: () => 'folder.json', reason: /`folder\.json` cannot be read: `[^`]*folder\.json` is a directory/ },
  { label: 'a symbolic link loop', ref: () => 'loop_a.json', reason: /`loop_a\.json` cannot be read: `[^`]*loop_a\.json` is a symbolic link loop/ },
  { label: 'a 2 GB file', ref: () => 'huge.json', reason: /`huge\.json` cannot be read: `[^`]*huge\.json` is 2\.0 GiB, over the 8 MiB limit/ },
];

describe('a config naming something that is not a readable file', { skip }, () => {
  for (const c of CASES) {
    test(`${c.label}: one finding that says why, promptly`, () => {
      const dir = hostileDir(`linked-${c.label.replace(/\W+/g, '-')}`);
      const file = join(dir, 'accelerate.yaml');
      writeFileSync(file, accelerate(c.ref(dir)));
      const started = Date.now();
      const r = run(['check', file, '--format', 'json'], dir);
      assert.ok(Date.now() - started < 15_000, 'it took too long');
      assert.equal(r.code, 0, r.err);
      const findings = JSON.parse(r.out) as { code: string; message: string }[];
      const missing = findings.filter((f) => f.code === 'deepspeed-config-file-missing');
      assert.equal(missing.length, 1, JSON.stringify(findings));
      assert.match(missing[0].message, c.reason);
      assert.doesNotMatch(missing[0].message, /was not found/);
      assertClean(r, c.label);
    });
  }

  test('a file that is missing is still "not found", with the locations tried', () => {
    const dir = join(tmp, 'linked-missing');
    mkdirSync(dir);
    writeFileSync(join(dir, 'accelerate.yaml'), accelerate('nowhere.json'));
    const r = run(['check', 'accelerate.yaml', '--format', 'json'], dir);
    const f = (JSON.parse(r.out) as { code: string; message: string }[]).find((x) => x.code === 'deepspeed-config-file-missing');
    assert.match(f?.message ?? '', /`nowhere\.json` was not found.*Looked for: `[^`]*nowhere\.json`/);
  });
});

describe('the same things named on the command line', { skip }, () => {
  const dir = posix ? hostileDir('named') : '';

  test('a device: one clear line on stderr, exit 2', () => {
    const r = run(['check', '/dev/zero']);
    assert.equal(r.code, 2);
    assert.equal(r.err, 'shardwise: /dev/zero is a device, not a regular file; only regular files and folders can be checked\n');
    assert.equal(r.out, '');
  });

  test('a FIFO: exit 2, never a blocked read', () => {
    const r = run(['check', join(dir, 'fifo.json')]);
    assert.equal(r.code, 2);
    assert.match(r.err, /fifo\.json is not a regular file \(a FIFO\); only regular files and folders can be checked\n$/);
    assert.equal(r.err.split('\n').length, 2, 'one line');
  });

  test('a symbolic link loop: exit 2', () => {
    const r = run(['check', join(dir, 'loop_a.json')]);
    assert.equal(r.code, 2);
    assert.match(r.err, /loop_a\.json is a symbolic link loop/);
  });

  test('a 2 GB file: not read; a notice says why and how to raise the limit', () => {
    const r = run(['check', join(dir, 'huge.json')]);
    assert.equal(r.code, 0);
    assert.match(r.err, /huge\.json was not checked: it is 2\.0 GiB, over the 1 MiB limit; --max-file-size raises the limit\n/);
    const small = run(['check', join(dir, 'huge.json'), '--max-file-size', '10MB']);
    assert.match(small.err, /is 2\.0 GiB, over the 10 MiB limit/);
  });

  test('a directory is searched as a folder: the hostile entries in it are skipped', () => {
    writeFileSync(join(dir, 'accelerate.yaml'), 'distributed_type: MULTI_GPU\nnum_processes: 2\nmixed_precision: no\n# shardwise: accelerate=1.14.0\n');
    symlinkSync('/dev/zero', join(dir, 'zero.yaml'));
    const r = run(['check', dir, '--format', 'json']);
    assert.equal(r.code, 1, r.err);
    const files = new Set((JSON.parse(r.out) as { file: string }[]).map((f) => f.file));
    assert.deepEqual([...files], [join(dir, 'accelerate.yaml')]);
    assert.match(r.err, /1 file over 256 KiB was not checked: [^\n]*huge\.json; --max-file-size raises the limit/);
    assert.doesNotMatch(r.err, /fifo|loop|zero|folder/);
  });

  test('a .shardwise.yaml that is a FIFO: said once on stderr, never waited for', () => {
    const proj = join(tmp, 'project-fifo');
    mkdirSync(proj);
    execFileSync('mkfifo', [join(proj, '.shardwise.yaml')]);
    writeFileSync(join(proj, 'a.yaml'), 'distributed_type: MULTI_GPU\nnum_processes: 2\nmixed_precision: no\n# shardwise: accelerate=1.14.0\n');
    writeFileSync(join(proj, 'b.yaml'), 'distributed_type: MULTI_GPU\nnum_processes: 2\nmixed_precision: no\n# shardwise: accelerate=1.14.0\n');
    const r = run(['check', '.'], proj);
    assert.equal(r.code, 1, r.err);
    assert.equal(r.err.split('\n').filter((l) => l.includes('.shardwise.yaml: not read: it is not a regular file (a FIFO)')).length, 1, r.err);
  });

  test('layout refuses a device or a FIFO the same way', () => {
    const r = run(['layout', '/dev/zero']);
    assert.equal(r.code, 2);
    assert.match(r.err, /cannot read \/dev\/zero: it is a device, not a regular file/);
    const f = run(['layout', join(dir, 'fifo.json')]);
    assert.equal(f.code, 2);
    assert.match(f.err, /it is not a regular file \(a FIFO\)/);
  });
});

describe('folder scans and the size limit', () => {
  test('files over the limit are skipped with one summary line; --max-file-size raises it', () => {
    const dir = join(tmp, 'sizes');
    mkdirSync(dir);
    // A tokenizer.json: a large vocabulary and merges, nothing a config would hold.
    const vocab: Record<string, number> = {};
    for (let i = 0; i < 100_000; i++) vocab[`\u0120t${i.toString(36)}`] = i;
    const merges = Array.from({ length: 60_000 }, (_, i) => `\u0120t ${i.toString(36)}`);
    writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify({ version: '1.0', model: { type: 'BPE', vocab, merges } }, null, 2));
    for (const n of ['a', 'b', 'c', 'd']) writeFileSync(join(dir, `golden_${n}.json`), JSON.stringify({ values: Array.from({ length: 60_000 }, (_, i) => i * 0.5) }));
    writeFileSync(join(dir, 'accelerate.yaml'), 'distributed_type: MULTI_GPU\nnum_processes: 2\nmixed_precision: no\n# shardwise: accelerate=1.14.0\n');
    const r = run(['check', '.'], dir);
    assert.equal(r.code, 1, r.err);
    assert.match(r.out, /^accelerate\.yaml:3:18: error \[yaml-boolean-trap\]/m);
    const summary = r.err.split('\n').filter((l) => /not checked/.test(l));
    assert.deepEqual(summary, ['shardwise: 5 files over 256 KiB were not checked: golden_a.json, golden_b.json, golden_c.json and 2 more; --max-file-size raises the limit']);
    const raised = run(['check', '.', '--max-file-size', '10MB'], dir);
    assert.equal(raised.code, 1, raised.err);
    assert.doesNotMatch(raised.err, /not checked/);
    assert.match(raised.err, /1 config file checked/);
  });

  test('--max-file-size takes bytes or K, M, G; anything else is a usage error', () => {
    const dir = join(tmp, 'sizes-usage');
    mkdirSync(dir);
    writeFileSync(join(dir, 'a.yaml'), 'distributed_type: MULTI_GPU\nnum_processes: 2\n' + '# padding\n'.repeat(200));
    assert.match(run(['check', '.', '--max-file-size', '1K'], dir).err, /1 file over 1 KiB was not checked: a\.yaml/);
    assert.match(run(['check', '.', '--max-file-size=2000'], dir).err, /1 file over 2000 bytes was not checked/);
    assert.doesNotMatch(run(['check', '.', '--max-file-size', '1MiB'], dir).err, /not checked/);
    for (const bad of ['0', 'lots', '-5', '1TB', '300MB']) {
      const r = run(['check', '.', '--max-file-size', bad], dir);
      assert.equal(r.code, 2, bad);
      assert.match(r.err, /--max-file-size/);
    }
  });
});

describe('output cannot be abused by what the input holds', () => {
  const hostileKey = '"\\x1b[2J\\x1b]8;;http://evil\\x07x\\u202e\\x9b"';

  test('escape sequences in a key: escaped in text, json and sarif output', () => {
    const dir = join(tmp, 'escapes');
    mkdirSync(dir);
    writeFileSync(join(dir, 'accelerate.yaml'), `compute_environment: LOCAL_MACHINE\ndistributed_type: MULTI_GPU\nnum_processes: 2\n${hostileKey}: 1\n`);
    const text = run(['check', 'accelerate.yaml'], dir);
    assert.equal(text.code, 1);
    assert.match(text.out, /error \[unknown-key\] `\\x1b\[2J\\x1b\]8;;http:\/\/evil\\x07x\\u202e\\x9b` is not a known key/);
    assertClean(text, 'text');
    const json = run(['check', 'accelerate.yaml', '--format', 'json'], dir);
    assertClean(json, 'json');
    assert.match((JSON.parse(json.out) as { message: string }[])[0].message, /\\x1b\[2J/);
    const sarif = run(['check', 'accelerate.yaml', '--format', 'sarif'], dir);
    assertClean(sarif, 'sarif');
    assert.match(JSON.parse(sarif.out).runs[0].results[0].message.text, /\\x1b\[2J/);
  });

  test('a file name with an escape sequence, a newline, C1 and bidi characters: escaped everywhere', { skip }, () => {
    const dir = join(tmp, 'names');
    mkdirSync(dir);
    const name = `x${ESC}[31m\nq\u009b\u202e #%é.yaml`;
    writeFileSync(join(dir, name), 'distributed_type: MULTI_GPU\nnum_processes: 2\nmixed_precision: no\n# shardwise: accelerate=1.14.0\n');
    const text = run(['check', '.'], dir);
    assertClean(text, 'text');
    assert.match(text.out, /^x\\x1b\[31m\\nq\\x9b\\u202e #%é\.yaml:3:18: error \[yaml-boolean-trap\]/m);
    assert.equal(text.out.split('\n').filter(Boolean).length, 1, 'the newline in the name does not make a second line');

    const json = run(['check', '.', '--format', 'json'], dir);
    assertClean(json, 'json');
    assert.match(json.out, /\\u009b\\u202e/, 'C1 and bidi characters written as \\u escapes');
    assert.equal((JSON.parse(json.out) as { file: string }[])[0].file, name, 'the parsed name is the real one');

    const sarif = run(['check', '.', '--format', 'sarif'], dir);
    assertClean(sarif, 'sarif');
    assert.equal(JSON.parse(sarif.out).runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri, 'x%1B%5B31m%0Aq%C2%9B%E2%80%AE%20%23%25%C3%A9.yaml');

    // Notes on stderr quote the name too.
    execFileSync('mkfifo', [join(dir, `fifo${ESC}[2J\n.json`)]);
    const named = run(['check', `fifo${ESC}[2J\n.json`], dir);
    assert.equal(named.code, 2);
    assertClean(named, 'stderr');
    assert.equal(named.err, 'shardwise: fifo\\x1b[2J\\n.json is not a regular file (a FIFO); only regular files and folders can be checked\n');
  });

  test('sarif: a relative path is a percent-encoded relative URI, an absolute one a file: URI', () => {
    const dir = join(tmp, 'uris', 'a b#c');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, '100% ü.yaml'), 'distributed_type: MULTI_GPU\nnum_processes: 2\nmixed_precision: no\n# shardwise: accelerate=1.14.0\n');
    const rel = JSON.parse(run(['check', '.', '--format', 'sarif'], join(tmp, 'uris')).out);
    assert.equal(rel.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri, 'a%20b%23c/100%25%20%C3%BC.yaml');
    const abs = JSON.parse(run(['check', join(dir, '100% ü.yaml'), '--format', 'sarif']).out);
    const uri = abs.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri as string;
    assert.match(uri, /^file:\/\/\/.*\/a%20b%23c\/100%25%20%C3%BC\.yaml$/);
  });
});

describe('nothing outside the folders named is read or written', { skip }, () => {
  const slip = 'distributed_type: MULTI_GPU\nnum_processes: 2\nnum_machiness: 1\n';
  test('a link to a folder elsewhere, a link to a file elsewhere and a link to /: not followed by check or --fix; --follow follows the folder links', () => {
    const root = join(tmp, 'links-root');
    const elsewhere = join(tmp, 'links-elsewhere');
    mkdirSync(root);
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, 'outside.yaml'), slip);
    writeFileSync(join(root, 'inside.yaml'), slip);
    symlinkSync(elsewhere, join(root, 'ext'));
    symlinkSync(join(elsewhere, 'outside.yaml'), join(root, 'linked.yaml'));
    symlinkSync('/', join(root, 'everything'));
    symlinkSync('inside.yaml', join(root, 'alias.yaml'));
    const checked = run(['check', root, '--output-format', 'json']);
    const files = new Set((JSON.parse(checked.out) as { file: string }[]).map((f) => f.file));
    assert.deepEqual([...files].sort(), [join(root, 'alias.yaml'), join(root, 'inside.yaml')], 'a link to a file inside the folder is checked; nothing reached through a link out of it');
    run(['check', root, '--fix']);
    assert.equal(readFileSync(join(elsewhere, 'outside.yaml'), 'utf8'), slip, '--fix wrote outside the folder named');
    assert.doesNotMatch(readFileSync(join(root, 'inside.yaml'), 'utf8'), /num_machiness/, 'the file inside is fixed');
    const followed = run(['check', join(tmp, 'links-root', 'ext'), '--output-format', 'json']);
    assert.ok(followed.out.includes('outside.yaml'), 'a folder named on the command line is searched even when it is a link');
    const all = run(['check', root, '--follow', '--exclude', 'everything', '--output-format', 'json']);
    assert.ok(all.out.includes('outside.yaml'), '--follow walks into the linked folder');
  });
});

describe('--fix never changes a byte it does not fix', () => {
  const latin1 = Buffer.concat([Buffer.from('# r'), Buffer.from([0xe9]), Buffer.from('sum'), Buffer.from([0xe9]), Buffer.from('\ndistributed_type: MULTI_GPU\nnum_processes: 2\nnum_machiness: 1\n')]);
  test('a file with Latin-1 bytes is not fixed, says why, and keeps every byte; the same on the standard input', () => {
    const file = join(tmp, 'latin1.yaml');
    writeFileSync(file, latin1);
    const r = run(['check', file, '--fix']);
    assert.match(r.err, /latin1\.yaml was not fixed: it is not UTF-8 text/);
    assert.ok(readFileSync(file).equals(latin1), 'the bytes changed');
    const piped = spawnSync(process.execPath, [CLI, 'check', '-', '--fix', '--stdin-filename', 'a.yaml'], { input: latin1, timeout: 20_000 });
    assert.ok(Buffer.from(piped.stdout).equals(latin1), 'the standard input came back changed');
  });
  test('a UTF-8 file with non-ASCII text is fixed, and every byte outside the fix stays', () => {
    const file = join(tmp, 'utf8.yaml');
    const text = '# résumé ✓\ndistributed_type: MULTI_GPU\nnum_processes: 2\nnum_machiness: 1\n';
    writeFileSync(file, text);
    run(['check', file, '--fix']);
    assert.equal(readFileSync(file, 'utf8'), text.replace('num_machiness', 'num_machines'));
  });
});

describe('check --fix end to end over hostile trees: each file becomes exactly what the engine fixes it to, and nothing else changes', { skip }, () => {
  test('30 files (mutated examples in UTF-8, UTF-8 with a BOM, CRLF and Latin-1) beside links in, out, in a loop and to /', async () => {
    const { fixText } = await import('../../server/src/engine');
    const seeds = ['accelerate/typo-and-traps.yaml', 'accelerate/multi-node.yaml', 'accelerate/fsdp2-migration.yaml', 'deepspeed/ds_zero3.json', 'deepspeed/ds_batch.json'].map((f) => ({ name: f.split('/').pop()!, text: readFileSync(join(ROOT, 'examples', f), 'utf8') }));
    // A seeded generator: the same tree on every run.
    let state = 2026;
    const next = (n: number): number => ((state = (state * 1103515245 + 12345) & 0x7fffffff), state % n);
    const root = join(tmp, 'fix-tree');
    const outside = join(tmp, 'fix-tree-outside');
    mkdirSync(join(root, 'sub'), { recursive: true });
    mkdirSync(outside);
    const bait = Buffer.from('distributed_type: MULTI_GPU\nnum_processes: 2\nnum_machiness: 1\n');
    writeFileSync(join(outside, 'bait.yaml'), bait);
    symlinkSync(outside, join(root, 'out'));
    symlinkSync('/', join(root, 'sub', 'everything'));
    symlinkSync('..', join(root, 'sub', 'loop'));
    const files: { path: string; bytes: Buffer }[] = [];
    for (let i = 0; i < 30; i++) {
      const seed = seeds[i % seeds.length];
      let text = seed.text;
      const lines = text.split('\n');
      // Mutations that keep the file a config: a duplicated line, a comment with non-ASCII text, a slip in a key.
      if (next(2)) lines.splice(next(lines.length), 0, lines[next(lines.length)]);
      if (seed.name.endsWith('.yaml')) lines.splice(1, 0, `# résumé ✓ ${i}`);
      text = lines.join('\n').replace('num_machines', next(2) ? 'num_machiness' : 'num_machines');
      const encoding = i % 4;
      const bytes = encoding === 0 ? Buffer.from(text) : encoding === 1 ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]) : encoding === 2 ? Buffer.from(text.replace(/\n/g, '\r\n')) : Buffer.from(text, 'latin1');
      const path = join(root, i % 3 ? 'sub' : '', `f${i}-${seed.name}`);
      writeFileSync(path, bytes);
      files.push({ path, bytes });
    }
    const r = run(['check', root, '--fix', '--no-config']);
    assert.ok(r.code === 0 || r.code === 1, r.err);
    assert.ok(readFileSync(join(outside, 'bait.yaml')).equals(bait), 'a file outside the folder named was changed');
    const changed = files.filter((f) => !readFileSync(f.path).equals(f.bytes)).length;
    assert.ok(changed >= 5 && changed < files.length, `${changed} of ${files.length} files fixed: the tree should hold files with and without safe fixes`);
    for (const f of files) {
      const now = readFileSync(f.path);
      const decoded = f.bytes.toString('utf8');
      // Not UTF-8: left byte for byte. UTF-8: exactly the engine's safe fixes of the text.
      const expected = Buffer.from(decoded, 'utf8').equals(f.bytes) ? Buffer.from(fixText({ path: f.path, text: decoded }, {}).text, 'utf8') : f.bytes;
      assert.ok(now.equals(expected), `${f.path}: the file is not what the engine's fixes make of it`);
    }
  });
});

describe('a reader that goes away', { skip }, () => {
  test('stdout closed early (`| true`) or closed outright: no stack trace, and the exit code is the check\'s', () => {
    for (const shell of [`"${process.execPath}" "${CLI}" check "${join(ROOT, 'examples')}" --show-fixes | true; exit \${PIPESTATUS[0]}`, `"${process.execPath}" "${CLI}" check "${join(ROOT, 'examples')}" --output-format json >&-`]) {
      const r = spawnSync('bash', ['-c', shell], { encoding: 'utf8', timeout: 30_000 });
      assert.equal(r.status, 1, `${shell}: ${r.stderr}`);
      assert.doesNotMatch(r.stderr, /EPIPE|Unhandled|at \w+ \(/, r.stderr);
    }
  });
});
