// The layouts file (layouts.json beside this module, or RECON_LAYOUTS): which columns of a disbursement
// file hold the line type, reference, payment, amount and currency. Validated once with zod.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { PROJECT_ROOT } from '../paths.js';

const columnRef = z.union([z.string(), z.number().int().nonnegative()]);
const LineKind = z.enum(['payout', 'refund', 'credit', 'debit']);

const LayoutSchema = z.object({
  id: z.string(),
  match: z.union([
    z.object({ header: z.array(z.string()).min(1) }),
    z.object({
      tagColumn: z.number().int().nonnegative(),
      tags: z.object({ header: z.string().optional(), detail: z.string(), footer: z.string().optional() }),
    }),
  ]),
  columns: z.object({
    type: columnRef,
    reference: columnRef,
    payment_id: columnRef.optional(),
    amount: columnRef,
    currency: columnRef,
  }),
  footer: z.object({ count: z.number().int().nonnegative(), total: z.number().int().nonnegative() }).optional(),
  amountUnit: z.enum(['major', 'minor']),
  types: z.record(z.string(), LineKind),
});
export type Layout = z.infer<typeof LayoutSchema>;
const LayoutsFileSchema = z.object({ layouts: z.array(LayoutSchema) });

const DEFAULT_LAYOUTS_PATH = path.join(PROJECT_ROOT, 'src', 'sync', 'layouts.json');

export async function loadLayouts(file: string = DEFAULT_LAYOUTS_PATH): Promise<Layout[]> {
  const text = await readFile(file, 'utf8').catch((err: Error) => {
    throw new Error(`cannot read the file layouts ${file}: ${err.message} (check --layouts / RECON_LAYOUTS)`);
  });
  const parsed = LayoutsFileSchema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`file layouts ${file} are invalid: ${parsed.error.message}`);
  return parsed.data.layouts;
}
