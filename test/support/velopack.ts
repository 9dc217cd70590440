import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { UpdateManager as VelopackUpdateManager } from 'velopack';

/** The real Velopack client (npm `velopack`, its Linux build; TOOLCHAIN.md), acting as an installed app. */
const require = createRequire(import.meta.url);
const { UpdateManager, setVelopackLogger } = require('velopack') as {
  UpdateManager: typeof VelopackUpdateManager;
  setVelopackLogger: (callback: (level: string, message: string) => void) => void;
};
// The client logs every HTTP exchange to the console; keep its warnings and errors only.
setVelopackLogger((level, message) => {
  if (level === 'warn' || level === 'error') console.warn(`velopack ${level}: ${message}`);
});

/** What an installed Velopack app keeps as `current/sq.version`: the nuspec of the version it runs. */
function buildNupkgManifest(packageId: string, version: string, channel = 'win'): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<package xmlns="http://schemas.microsoft.com/packaging/2010/07/nuspec.xsd"><metadata><id>${packageId}</id><version>${version}</version><title>${packageId}</title><authors>x</authors><description>x</description><channel>${channel}</channel><mainExe>${packageId}.exe</mainExe></metadata></package>`;
}

/**
 * A fake installed app of `version` packed on `channel`, for Velopack's documented locator override, and its
 * UpdateManager on the activation's folder URL; `packages` is where the client downloads to.
 */
export function installedVelopackApp(
  velopackUrl: string,
  packageId: string,
  version: string,
  channel: string,
) {
  const root = mkdtempSync(path.join(tmpdir(), 'velopack-app-'));
  mkdirSync(path.join(root, 'current'));
  mkdirSync(path.join(root, 'packages'));
  writeFileSync(path.join(root, 'current', 'sq.version'), buildNupkgManifest(packageId, version, channel));
  writeFileSync(path.join(root, 'Update.exe'), '');
  const manager = new UpdateManager(
    velopackUrl,
    { ExplicitChannel: channel, AllowVersionDowngrade: false },
    {
      RootAppDir: root,
      UpdateExePath: path.join(root, 'Update.exe'),
      PackagesDir: path.join(root, 'packages'),
      ManifestPath: path.join(root, 'current', 'sq.version'),
      CurrentBinaryDir: path.join(root, 'current'),
      IsPortable: true,
    },
  );
  return {
    manager,
    packages: path.join(root, 'packages'),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
