import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { minimumSystemText, VersionPanel } from './VersionPanel';

afterEach(cleanup);

const tool = {
  _id: 'tool-1',
  name: 'PDF Utility Toolkit',
  description: 'Merge and split PDFs.',
  icon: null,
  device: 'Windows' as const,
  purchaseDate: '2026-11-22T06:30:00.000Z',
  currentVersion: {
    version: '1.1.0',
    publishedAt: '2026-11-20T06:30:00.000Z',
    notesHtml: '',
    minimumMacosVersion: null,
    minimumWindowsVersion: null,
    installers: [
      {
        artifactId: 'a-1',
        platform: 'windows' as const,
        arch: 'x64' as const,
        fileName: 'Setup.exe',
        size: 3 * 1024 * 1024,
      },
    ],
  },
  earlierVersions: [],
};

describe('the current version on My Tools', () => {
  it('is a region named with its tool, apart from the other cards’ ones', () => {
    render(<VersionPanel tool={tool} title="PDF Utility Toolkit (Windows)" />);
    expect(
      screen.getByRole('region', { name: 'Current version of PDF Utility Toolkit (Windows)' }),
    ).toBeTruthy();
    expect(screen.queryByText(/^Requires /)).toBeNull();
  });

  it('says the oldest system the release runs on, where it sets one', () => {
    const current = { ...tool.currentVersion, minimumWindowsVersion: '10.0.17763' };
    render(
      <VersionPanel tool={{ ...tool, currentVersion: current }} title="PDF Utility Toolkit (Windows)" />,
    );
    expect(
      screen
        .getByRole('region', { name: 'Current version of PDF Utility Toolkit (Windows)' })
        .textContent?.includes('Requires Windows 10.0.17763 or later'),
    ).toBe(true);
    expect(minimumSystemText({ minimumMacosVersion: '12.0', minimumWindowsVersion: null })).toBe(
      'Requires macOS 12.0 or later',
    );
  });
});
