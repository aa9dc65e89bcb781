// The settings each stage gets, built once from the options: the outlets', the store's layout, the one list
// of secrets every stage redacts, and the options as a run records them.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCommandArgs, COMMAND_OPTIONS } from '../../pipelines/config.js';
import { bankSettings, runSettings, layoutOf, outletSettings, storableOptions, syncSettings } from '../../pipelines/settings.js';
import { tempDir } from '../helpers/recon.js';

describe('outlet settings', () => {
  it('takes --notify-url several times, or the variable with URLs separated by spaces', () => {
    const flags = parseCommandArgs(['--notify-url', 'https://a.example/x', '--notify-url', 'http://127.0.0.1:9/y'], COMMAND_OPTIONS.run, {}, {}).config;
    expect(flags.notifyUrl).toEqual(['https://a.example/x', 'http://127.0.0.1:9/y']);
    const env = parseCommandArgs([], COMMAND_OPTIONS.run, {}, { RECON_NOTIFY_URL: ' https://a.example/x   https://b.example/y ' }).config;
    expect(env.notifyUrl).toEqual(['https://a.example/x', 'https://b.example/y']);
    expect(() => parseCommandArgs(['--notify-url', 'ftp://a.example/x'], COMMAND_OPTIONS.run, {}, {})).toThrow(/--notify-url \/ RECON_NOTIFY_URL: expected http:\/\/ or https:\/\/ URLs/);
    expect(() => parseCommandArgs(['--ping-url', 'hc-ping.com/x'], COMMAND_OPTIONS.run, {}, {})).toThrow(/--ping-url \/ RECON_PING_URL "hc-ping.com\/x"/);
  });

  it('never quotes an SMTP URL back in an error, and needs one for --mail-to', () => {
    let message = '';
    try {
      parseCommandArgs([], COMMAND_OPTIONS.run, {}, { RECON_SMTP_URL: 'smtp://u:hunter2@mail.example.com?pool=true' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/^invalid --smtp-url \/ RECON_SMTP_URL: expected smtp:\/\//);
    expect(message).not.toContain('hunter2');
    expect(() => parseCommandArgs(['--mail-to', 'finance@example.com, not an address'], COMMAND_OPTIONS.run, {}, {})).toThrow(/--mail-to \/ RECON_MAIL_TO/);
    const { config } = parseCommandArgs(['--mail-to', 'finance@example.com'], COMMAND_OPTIONS.run, {}, {});
    expect(() => outletSettings(config)).toThrow(/--mail-to needs an SMTP server: set RECON_SMTP_URL/);
  });

  it('knows the SMTP password and the API key as secrets, and is off until configured', () => {
    const { config } = parseCommandArgs(['--api-key', 'k3y-value', '--mail-to', 'a@example.com'], COMMAND_OPTIONS.run, {}, { RECON_SMTP_URL: 'smtps://u:p%2Fw@mail.example.com' });
    const s = outletSettings(config);
    expect(s.secrets).toEqual(['k3y-value', 'p/w']);
    expect(s.mail).toMatchObject({ to: ['a@example.com'], maxAttachmentBytes: 10 * 1_048_576 });
    const off = outletSettings(parseCommandArgs([], COMMAND_OPTIONS.run, {}, {}).config);
    expect([off.mail, off.notifyUrls, off.pingUrl, off.metricsFile, off.junitFile]).toEqual([null, [], null, null, null]);
  });
});

describe('one list of secrets, one layout', () => {
  const parse = (args: string[], env: NodeJS.ProcessEnv = {}) => parseCommandArgs(args, COMMAND_OPTIONS.run, {}, env).config;

  it('hands every stage the same secrets: the API key and the SMTP password', () => {
    const config = parse(['--api-url', 'http://127.0.0.1:9', '--api-key', 'k3y-value'], { RECON_SMTP_URL: 'smtps://u:s3cret-pw@mail.example.com' });
    const expected = ['k3y-value', 's3cret-pw'];
    expect(runSettings(config).secrets).toEqual(expected);
    expect(syncSettings(config).secrets).toEqual(expected);
    expect(bankSettings(config).secrets).toEqual(expected);
    expect(outletSettings(config).secrets).toEqual(expected);
  });

  it('records the options without the key, the SMTP password or a webhook\'s path', () => {
    expect(storableOptions({ apiKey: 'k3y', smtpUrl: 'smtps://u:secret@mail.example.com:465?requireTLS=true', pingUrl: 'https://hc-ping.com/uuid',
      notifyUrl: ['https://h.example/a/b'], db: 'x' }))
      .toEqual({ smtpUrl: 'smtps://mail.example.com:465?requireTLS=true', pingUrl: 'https://hc-ping.com/…', notifyUrl: ['https://h.example/…'], db: 'x' });
  });

  it('puts the lock, files, logs and snapshot beside the store, the same through a symbolic link to it', () => {
    const t = tempDir('recon-layout-');
    try {
      const real = path.join(t.dir, 'real');
      mkdirSync(real);
      writeFileSync(path.join(real, 'recon.duckdb'), '');
      symlinkSync(path.join(real, 'recon.duckdb'), path.join(t.dir, 'link.duckdb'));
      const direct = layoutOf(parse(['--db', path.join(real, 'recon.duckdb')]));
      const linked = layoutOf(parse(['--db', path.join(t.dir, 'link.duckdb')]));
      expect(direct).toMatchObject({ dir: real, lock: path.join(real, 'recon.duckdb.lock'), files: path.join(real, 'files'),
        log: path.join(real, 'logs', 'recon.log'), published: path.join(real, 'published', 'recon.duckdb') });
      expect([linked.dir, linked.lock, linked.files, linked.log]).toEqual([direct.dir, direct.lock, direct.files, direct.log]);
      // a store not made yet: beside where it will be
      expect(layoutOf(parse(['--db', path.join(t.dir, 'new', 'recon.duckdb')])).files).toBe(path.join(t.dir, 'new', 'files'));
    } finally {
      t.cleanup();
    }
  });
});
