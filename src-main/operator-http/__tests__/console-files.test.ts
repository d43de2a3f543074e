import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createConsoleFiles } from '../console-files';

function uiFolder() {
  const root = mkdtempSync(join(tmpdir(), 'wk-ui-'));
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>v1</title>');
  writeFileSync(join(root, 'assets', 'index-abc.js'), 'console.log(1)');
  writeFileSync(join(root, '..', `${root.split('/').pop()}-secret.txt`), 'not served');
  return root;
}

describe('the console files', () => {
  it('serves index.html for the folder, with a type; hashed assets may be kept, index.html is re-asked', () => {
    const files = createConsoleFiles(uiFolder());
    const index = files.read('/')!;
    expect(new TextDecoder().decode(index.body)).toContain('v1');
    expect(index.headers['content-type']).toMatch(/^text\/html/);
    expect(index.headers['cache-control']).toBe('no-cache');
    const script = files.read('/assets/index-abc.js')!;
    expect(script.headers['content-type']).toMatch(/javascript/);
    expect(script.headers['cache-control']).toContain('immutable');
  });

  it('answers nothing for a missing file, a folder, or a path that climbs out of the UI folder', () => {
    const root = uiFolder();
    const files = createConsoleFiles(root);
    expect(files.read('/nope.js')).toBeNull();
    expect(files.read('/assets')).toBeNull();
    expect(files.read(`/../${root.split('/').pop()}-secret.txt`)).toBeNull();
  });

  it('reads a file again once it was rebuilt', () => {
    const root = uiFolder();
    const files = createConsoleFiles(root);
    expect(new TextDecoder().decode(files.read('/index.html')!.body)).toContain('v1');
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>v2</title>');
    const later = new Date(Date.now() + 5_000);
    utimesSync(join(root, 'index.html'), later, later);
    expect(new TextDecoder().decode(files.read('/index.html')!.body)).toContain('v2');
  });
});
