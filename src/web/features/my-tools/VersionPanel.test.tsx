import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { VersionPanel } from './VersionPanel';

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
  });
});
