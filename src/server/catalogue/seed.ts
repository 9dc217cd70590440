import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { DEVELOPMENT_EXAMPLES } from '../../shared/shop';
import { SITE } from '../../shared/site';
import type { Tx } from '../db';
import { tools } from '../db/schema/catalogue';
import type { AppContext } from '../kernel/context';
import { insertFirstRelease } from '../releases/first-release';
import { buildZip } from './zip';

type SeedTool = {
  name: string;
  description: string;
  device: 'Windows' | 'macOS' | null;
  priceInrPaise: number;
  priceUsdCents: number | null;
  comingSoon: boolean;
  delivery: 'license_key' | 'credentials';
  sortOrder: number;
  sample?: { fileName: string; platformNotes: string[] };
};

/** The catalogue an empty database starts with: the two PDF toolkits the home page advertises and one preview. */
export const DEFAULT_TOOLS: SeedTool[] = [
  {
    name: 'PDF Utility Toolkit',
    device: 'Windows',
    description:
      'A complete PDF workbench for Windows 10 and 11 that runs entirely on your own computer, so confidential ' +
      'financial statements, tax returns and client contracts never leave your machine. Merge and split ' +
      'documents, compress large scans for email and portal uploads, rotate and reorder pages, add page ' +
      'numbers and Bates stamps, protect files with passwords and convert PDFs to Word, Excel or images. ' +
      'Batch mode works through whole folders at once, which is ideal for month-end closing and audit files.',
    priceInrPaise: 149_900,
    priceUsdCents: 1_999,
    comingSoon: false,
    delivery: 'license_key',
    sortOrder: 10,
    sample: {
      fileName: 'pdf-utility-toolkit-windows.zip',
      platformNotes: [
        'Requirements: Windows 10 or 11 (64-bit), 4 GB RAM, 200 MB free disk space.',
        '1. Extract this archive and run the installer it contains.',
        '2. Windows SmartScreen or your antivirus may warn about a new publisher; choose "More info" and',
        '   "Run anyway" only if you downloaded the file from our official site.',
        '3. Start PDF Utility Toolkit and enter the license key from your purchase email.',
      ],
    },
  },
  {
    name: 'PDF Utility Toolkit',
    device: 'macOS',
    description:
      'The same dependable PDF workbench, built natively for macOS 12 or later on Apple silicon and Intel Macs. ' +
      'Everything happens offline on your Mac: merge, split and reorder documents, shrink scanned statements ' +
      'without losing legibility, redact sensitive figures, fill and sign forms, add watermarks and page ' +
      'numbers, and export to Word, Excel or high-resolution images. Drag a folder onto the dock icon to ' +
      'process hundreds of files in one go, with a clear report of every change.',
    priceInrPaise: 149_900,
    priceUsdCents: 1_999,
    comingSoon: false,
    delivery: 'license_key',
    sortOrder: 20,
    sample: {
      fileName: 'pdf-utility-toolkit-macos.zip',
      platformNotes: [
        'Requirements: macOS 12 Monterey or later, Apple silicon or Intel, 200 MB free disk space.',
        '1. Extract this archive and drag PDF Utility Toolkit into your Applications folder.',
        '2. The first time, Control-click the app and choose "Open" if macOS asks to confirm the developer.',
        '3. Start PDF Utility Toolkit and enter the license key from your purchase email.',
      ],
    },
  },
  {
    name: 'GST Reconciliation Assistant',
    device: null,
    description:
      'A secure online workspace that matches your purchase register against GSTR-2B line by line, flags ' +
      'missing, duplicate and mismatched invoices, and drafts the follow-up emails to your suppliers. It ' +
      'understands credit notes, amendments and multiple GSTINs, keeps a full audit trail for every month, ' +
      'and exports working papers your auditor can review without extra formatting. Built by our own ' +
      'GST compliance team from years of monthly reconciliations.',
    priceInrPaise: 249_900,
    priceUsdCents: 3_499,
    comingSoon: true,
    delivery: 'credentials',
    sortOrder: 30,
  },
];

function sampleArchive(tool: SeedTool & { sample: NonNullable<SeedTool['sample']> }): Buffer {
  const readme = [
    `${tool.name} (${tool.device ?? 'all platforms'}) — version 1.0`,
    `${SITE.name}`,
    '',
    'Thank you for your purchase. Your tool has lifetime validity.',
    '',
    ...tool.sample.platformNotes,
    '',
    'Only download this tool from our official website. Your download link is valid for 3 hours;',
    'you can get a fresh one at any time from My Tools with "Get Credentials".',
    '',
    'This archive is the sample download that ships with the default catalogue; the shop operator',
    'replaces it with the current installer.',
    '',
    `Support: ${SITE.supportEmail} · ${SITE.phone}`,
    '',
  ].join('\r\n');
  const license = [
    `${tool.name} — end-user license summary`,
    '',
    'One license key activates the tool for one person on up to two computers they use.',
    'The license does not expire. It may not be resold or shared outside your organisation.',
    `The full terms are on our website under Terms and Conditions.`,
    '',
  ].join('\r\n');
  return buildZip([
    { name: 'README.txt', content: readme },
    { name: 'LICENSE.txt', content: license },
  ]);
}

/**
 * Gives an empty database the default catalogue, with real sample files in storage. Safe to call from any number
 * of instances at once: an advisory lock serialises them, and only a tools table with no rows at all is seeded
 * (a catalogue whose tools were all deactivated stays as the operator left it). In development the macOS toolkit
 * also has a free trial and the example coupon is made (DEVELOPMENT_EXAMPLES), so a first run shows every way to
 * buy; production and the tests start from the catalogue alone.
 */
export async function seedDefaultCatalogue(
  ctx: AppContext,
  /** What else a development shop's first run shows, written in the same transaction (the example coupon). */
  seedExamples?: (tx: Tx) => Promise<void>,
): Promise<{ seeded: boolean }> {
  const { storage } = ctx;
  return ctx.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(7130001)`);
    const [existing] = await tx.select({ id: tools.id }).from(tools).limit(1);
    if (existing) return { seeded: false };
    const now = ctx.clock.now();
    const examples = ctx.config.env === 'development';
    for (const tool of DEFAULT_TOOLS) {
      const id = randomUUID();
      let file: { fileKey: string; fileName: string; fileSha256: string; fileSize: number } | undefined;
      let sampleBytes: Uint8Array | undefined;
      if (tool.sample) {
        sampleBytes = sampleArchive({ ...tool, sample: tool.sample });
        const stored = await storage.put(`tools/${id}/${tool.sample.fileName}`, sampleBytes);
        file = {
          fileKey: stored.key,
          fileName: tool.sample.fileName,
          fileSha256: stored.sha256,
          fileSize: stored.size,
        };
      }
      await tx.insert(tools).values({
        id,
        name: tool.name,
        description: tool.description,
        device: tool.device,
        priceInrPaise: tool.priceInrPaise,
        priceUsdCents: tool.priceUsdCents,
        comingSoon: tool.comingSoon,
        delivery: tool.delivery,
        sortOrder: tool.sortOrder,
        ...(examples && tool.device === DEVELOPMENT_EXAMPLES.trialDevice
          ? { trialDays: DEVELOPMENT_EXAMPLES.trialDays }
          : {}),
        ...file,
        createdAt: now,
        updatedAt: now,
      });
      if (file && sampleBytes) {
        const sample = { fileName: file.fileName, storageKey: file.fileKey, bytes: sampleBytes };
        await insertFirstRelease(tx, ctx, { id, device: tool.device }, sample, now);
      }
    }
    if (examples) await seedExamples?.(tx);
    return { seeded: true };
  });
}
