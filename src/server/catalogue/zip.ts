import { crc32, deflateRawSync } from 'node:zlib';

export type ZipEntry = { name: string; content: string | Uint8Array };

/** MS-DOS date and time fields, as ZIP headers store them. */
function dosDateTime(date: Date): { time: number; date: number } {
  return {
    time: (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | Math.floor(date.getUTCSeconds() / 2),
    date: ((date.getUTCFullYear() - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate(),
  };
}

/**
 * Builds a small, valid ZIP archive (deflated entries, UTF-8 names). Enough for the sample downloads that ship
 * with the default catalogue; the same input and date always give the same bytes.
 */
export function buildZip(entries: ZipEntry[], modified = new Date('2025-06-17T00:00:00Z')): Buffer {
  const stamp = dosDateTime(modified);
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;

  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const raw = typeof entry.content === 'string' ? Buffer.from(entry.content, 'utf8') : entry.content;
    const compressed = deflateRawSync(raw, { level: 9 });
    const checksum = crc32(raw);

    // What the central directory repeats of the local header: version needed, flags (UTF-8 names), deflate, the
    // time and date, the checksum, both sizes and the name's length.
    const described = Buffer.alloc(24);
    described.writeUInt16LE(20, 0);
    described.writeUInt16LE(0x0800, 2);
    described.writeUInt16LE(8, 4);
    described.writeUInt16LE(stamp.time, 6);
    described.writeUInt16LE(stamp.date, 8);
    described.writeUInt32LE(checksum, 10);
    described.writeUInt32LE(compressed.length, 14);
    described.writeUInt32LE(raw.byteLength, 18);
    described.writeUInt16LE(name.length, 22);

    // The extra field's length stays 0.
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    described.copy(local, 4);
    locals.push(local, name, compressed);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    described.copy(central, 6);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);

    offset += local.length + name.length + compressed.length;
  }

  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
