import { describe, expect, it } from 'vitest';
import { parseCommandArgs, requireService } from '../../pipelines/config.js';
import { currencyDecimals, formatMajor, parseMajor } from '../../src/money.js';
import { main } from '../../pipelines/cli/dispatch.js';

describe('configuration', () => {
  it('takes flags over environment over defaults', () => {
    const env = { PAYMENTS_API_URL: 'https://env.example', RECON_DB: '/env/recon.duckdb', RECON_LOOKBACK_DAYS: '3' };
    const { config } = parseCommandArgs(['--db', '/flag/x.duckdb'], ['apiUrl', 'db', 'lookbackDays', 'published'], {}, env);
    expect(config.apiUrl).toBe('https://env.example');
    expect(config.db).toBe('/flag/x.duckdb');
    expect(config.lookbackDays).toBe(3);
    expect(config.published).toBe('/flag/published/recon.duckdb');
  });

  it('names the flag and the variable of an invalid value', () => {
    expect(() => parseCommandArgs(['--lookback-days', 'soon'], ['lookbackDays'], {}, {})).toThrow('--lookback-days must be a whole number, got soon');
    expect(() => parseCommandArgs([], ['lookbackDays'], {}, { RECON_LOOKBACK_DAYS: '2.5' }))
      .toThrow('RECON_LOOKBACK_DAYS must be a whole number, got 2.5 (the variable of --lookback-days)');
    expect(() => parseCommandArgs(['--since', 'soon'], ['since'], {}, {})).toThrow(/--since \/ RECON_SINCE "soon"/);
  });

  it('refuses a DuckDB memory limit below what DuckDB survives, saying why, and takes the floor itself', () => {
    expect(() => parseCommandArgs(['--sync-memory-mb', '16'], ['syncMemoryMb'], {}, {}))
      .toThrow('--sync-memory-mb must be ≥ 32 (below it DuckDB invalidated the store during a backfill), got 16');
    expect(() => parseCommandArgs([], ['syncMemoryMb'], {}, { RECON_SYNC_MEMORY_MB: '31' }))
      .toThrow('RECON_SYNC_MEMORY_MB must be ≥ 32 (below it DuckDB invalidated the store during a backfill), got 31');
    expect(parseCommandArgs(['--sync-memory-mb', '32'], ['syncMemoryMb'], {}, {}).config.syncMemoryMb).toBe(32);
    expect(() => parseCommandArgs(['--memory-mb', '63'], ['memoryMb'], {}, {})).toThrow('--memory-mb must be ≥ 64, got 63');
  });

  it('takes a negative number after a flag as its value and refuses it by name, never as "takes no value"', () => {
    expect(() => parseCommandArgs(['--lookback-days', '-3'], ['lookbackDays'], {}, {})).toThrow('--lookback-days must be ≥ 0, got -3');
    expect(() => parseCommandArgs(['--lookback-days=-3'], ['lookbackDays'], {}, {})).toThrow('--lookback-days must be ≥ 0, got -3');
    expect(() => parseCommandArgs(['--rate-per-minute', '-0.5'], ['ratePerMinute'], {}, {})).toThrow('--rate-per-minute must be a whole number, got -0.5');
    expect(() => parseCommandArgs([], ['lookbackDays'], {}, { RECON_LOOKBACK_DAYS: '-3' })).toThrow('RECON_LOOKBACK_DAYS must be ≥ 0, got -3');
    // a value that is a number stays one; a flag after a flag is still a missing value; a boolean never takes it
    expect(parseCommandArgs(['--lookback-days', '0'], ['lookbackDays'], {}, {}).config.lookbackDays).toBe(0);
    expect(() => parseCommandArgs(['--lookback-days', '--full'], ['lookbackDays', 'full'], {}, {})).toThrow(/--lookback-days/);
    expect(() => parseCommandArgs(['--full', '-3'], ['full'], {}, {})).toThrow(/unknown option -3|-3/);
    // a positional after the value is still a positional
    expect(parseCommandArgs(['--lookback-days', '4', 'k'], ['lookbackDays'], {}, {}).positionals).toEqual(['k']);
  });

  it('reads a bank-fee tolerance per currency, and names the flag of one it cannot read', () => {
    expect(parseCommandArgs([], ['bankFeeTolerance'], {}, {}).config.bankFeeTolerance).toBe('*:25:1%');
    const env = { RECON_BANK_FEE_TOLERANCE: 'EUR:15:0.5%, usd:20:1%,*:0:0%' };
    expect(parseCommandArgs([], ['bankFeeTolerance'], {}, env).config.bankFeeTolerance).toBe('EUR:15:0.5%, usd:20:1%,*:0:0%');
    for (const wrong of ['EUR:15', 'EURO:15:1%', 'EUR:-1:1%', 'EUR:1:101%', 'EUR:1:1%,EUR:2:1%']) {
      expect(() => parseCommandArgs(['--bank-fee-tolerance', wrong], ['bankFeeTolerance'], {}, {}), wrong).toThrow(/--bank-fee-tolerance \/ RECON_BANK_FEE_TOLERANCE.*CCY:AMOUNT:PERCENT%/);
    }
  });

  it('says what to set when the service is not configured, and refuses the key over plain http to a remote host', () => {
    const { config } = parseCommandArgs([], ['apiUrl', 'apiKey'], {}, {});
    expect(() => requireService(config)).toThrow(/--api-url or set PAYMENTS_API_URL/);
    const remote = parseCommandArgs(['--api-url', 'http://pay.example.com', '--api-key', 'k'], ['apiUrl', 'apiKey', 'insecureHttp'], {}, {}).config;
    expect(() => requireService(remote)).toThrow(/--insecure-http/);
    expect(requireService({ ...remote, insecureHttp: true }).apiUrl).toBe('http://pay.example.com');
    const local = parseCommandArgs(['--api-url', 'http://127.0.0.1:9/payments/v1', '--api-key', 'k'], ['apiUrl', 'apiKey'], {}, {}).config;
    expect(requireService(local).apiUrl).toBe('http://127.0.0.1:9');
  });
});

describe('money', () => {
  it('formats subunits exactly with the currency decimals', () => {
    expect([currencyDecimals('JPY'), currencyDecimals('VND'), currencyDecimals('EUR'), currencyDecimals('KWD'), currencyDecimals('MGA')]).toEqual([0, 1, 2, 3, 1]);
    expect(formatMajor(6n, 'MGA')).toBe('1.2');
    expect(formatMajor(-1234n, 'EUR')).toBe('-12.34');
    expect(formatMajor(1234n, 'KWD')).toBe('1.234');
  });
  it('parses major units back exactly and refuses amounts that are not whole subunits', () => {
    expect(parseMajor('1,234.50', 'EUR')).toBe(123450n);
    expect(parseMajor('0.3', 'MGA')).toBeNull();
    expect(parseMajor('abc', 'EUR')).toBeNull();
  });
});

describe('the recon CLI', () => {
  it('lists every command in --help and exits 2 on an unknown command', async () => {
    const written: string[] = [];
    const write = process.stdout.write;
    process.stdout.write = ((chunk: string) => (written.push(String(chunk)), true)) as typeof process.stdout.write;
    try {
      expect(await main(['--help'])).toBe(0);
    } finally {
      process.stdout.write = write;
    }
    const help = written.join('');
    for (const name of ['run', 'sync', 'check', 'report', 'close', 'schedule', 'sql', 'ack', 'export', 'sandbox', 'demo', 'doctor']) {
      expect(help).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
    }
    expect(await main(['frobnicate'])).toBe(2);
  });
});
