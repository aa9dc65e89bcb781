// What `make run` shows of the outlets without any server: the mail written as .eml files (nodemailer's
// stream transport) and the alert documents as JSON files under data/outbox, the metrics file, JUnit and
// results files and the close's mail and alert; then a few lines saying where, and the
// last alert document as --notify-url would receive it.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomically } from '../files.js';
import type { NotifyDocument } from './notify-schema.js';
import type { CloseOutletSettings, OutletSettings } from './settings.js';
import type { OutletsReport } from './deliver.js';
import type { StoreLayout } from '../store/layout.js';

interface DemoOutlets {
  night: Partial<OutletSettings>;
  close: Partial<CloseOutletSettings>;
  /** The lines telling where each outlet's output went, and the last alert document. */
  describe(reports: Array<{ label: string; outlets?: OutletsReport }>): string;
}

export function demoOutlets(layout: Pick<StoreLayout, 'dir' | 'outbox'>, reportsDir: string): DemoOutlets {
  const outbox = layout.outbox;
  const documents: NotifyDocument[] = [];
  const onDocument = async (doc: NotifyDocument) => {
    documents.push(doc);
    const name =
      `alert-${doc.kind === 'close' ? `close-${doc.close?.month ?? ''}` : (doc.run_id ?? 'failed')}.json`.replace(
        /[^A-Za-z0-9._-]/g,
        '_',
      );
    await writeFileAtomically(path.join(outbox, name), (temp) => writeFile(temp, `${JSON.stringify(doc, null, 2)}\n`));
  };
  const mail = {
    to: ['finance@example.com'],
    from: 'recon@example.com',
    transport: { kind: 'eml' as const, dir: outbox },
    maxAttachmentBytes: 10 * 1_048_576,
  };
  return {
    night: {
      mail,
      onDocument,
      metricsFile: path.join(layout.dir, 'metrics', 'recon.prom'),
      junitFile: path.join(reportsDir, 'junit.xml'),
    },
    close: { mail, onDocument },
    describe(reports) {
      const lines = ['', `What finance and operations receive (here written under ${outbox} instead of sent):`];
      for (const r of reports) for (const d of r.outlets?.delivered ?? []) lines.push(`  ${r.label.padEnd(8)} ${d}`);
      for (const r of reports)
        for (const w of r.outlets?.warnings ?? []) lines.push(`  ${r.label.padEnd(8)} warning: ${w}`);
      const last = documents.filter((d) => d.kind === 'run').at(-1);
      if (last)
        lines.push(
          '',
          `The alert document of the last night, as each --notify-url receives it (schema ${last.schema}):`,
          compactJson(last),
        );
      return `${lines.join('\n')}\n`;
    },
  };
}

/** JSON with each object or array on one line when it fits in `width`, so a document reads in a screenful. */
function compactJson(value: unknown, width = 110, indent = ''): string {
  const flat = JSON.stringify(value);
  if (flat === undefined || flat.length + indent.length <= width || value === null || typeof value !== 'object')
    return flat ?? 'null';
  const inner = `${indent}  `;
  if (Array.isArray(value))
    return `[\n${value.map((v) => inner + compactJson(v, width, inner)).join(',\n')}\n${indent}]`;
  const entries = Object.entries(value as Record<string, unknown>);
  return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ` +
                                         `${compactJson(v, width - k.length - 4, inner)}`).join(',\n')}\n${indent}}`;
}
