// One recon command run as the bin runs it (the dispatcher, this process started with the bin's node flags
// and DuckDB allocator setting by child.ts), at its defaults but the paths given: its exit code, CPU time
// and peak RSS are this process's. Args: the command's arguments (e.g. check --db …).
import { main } from '../../pipelines/cli/dispatch.js';
import { peakRssMb, seconds, stage } from '../lib.js';

stage(async (args) => {
  const started = performance.now();
  const code = await main(args);
  const cpu = process.cpuUsage();
  return { code, seconds: seconds(started), cpuSeconds: (cpu.user + cpu.system) / 1e6, peakRssMb: peakRssMb() };
});
