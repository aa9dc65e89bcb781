import { describe, expect, it } from 'vitest';
import { parseCommandArgs, COMMAND_OPTIONS } from '../../../src/config.js';
import { outletSettings } from '../../../src/outlets/settings.js';

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
