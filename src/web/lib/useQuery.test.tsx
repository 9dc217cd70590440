import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useQuery } from './useQuery';

/** A load whose answers the test gives, one question at a time, in any order. */
function answers<T>() {
  const pending: Array<{ resolve: (value: T) => void; reject: (failure: unknown) => void }> = [];
  const load = () =>
    new Promise<T>((resolve, reject) => {
      pending.push({ resolve, reject });
    });
  return { load, pending };
}

describe('useQuery', () => {
  it('asks nothing while the key is null, and asks once it is set', async () => {
    const { load, pending } = answers<string>();
    const { result, rerender } = renderHook(({ key }) => useQuery(key, load), {
      initialProps: { key: null as string | null },
    });
    expect(pending).toHaveLength(0);
    expect(result.current).toMatchObject({ data: null, error: null, loading: false });

    rerender({ key: 'list' });
    expect(pending).toHaveLength(1);
    await waitFor(() => expect(result.current.loading).toBe(true));
    await act(async () => pending[0]?.resolve('first'));
    expect(result.current).toMatchObject({ data: 'first', error: null, loading: false });
  });

  it('drops an answer to a question older than the newest', async () => {
    const { load, pending } = answers<string>();
    const { result, rerender } = renderHook(({ key }) => useQuery(key, load), {
      initialProps: { key: 'a' },
    });
    rerender({ key: 'b' });
    expect(pending).toHaveLength(2);
    await act(async () => pending[1]?.resolve('answer to b'));
    await act(async () => pending[0]?.resolve('answer to a'));
    expect(result.current.data).toBe('answer to b');
  });

  it('keeps the last answer when a reload fails, says why, and tells onError once', async () => {
    const { load, pending } = answers<string>();
    const failures: unknown[] = [];
    const { result } = renderHook(() => useQuery('list', load, (failure) => failures.push(failure)));
    await act(async () => pending[0]?.resolve('kept'));

    const refused = new Error('refused');
    let reloaded: Promise<void> | undefined;
    act(() => {
      reloaded = result.current.reload();
    });
    await act(async () => {
      pending[1]?.reject(refused);
      await reloaded;
    });
    expect(result.current).toMatchObject({ data: 'kept', error: refused, loading: false });
    expect(failures).toEqual([refused]);

    // A reload that works clears the failure; `reload` settles once its answer is in.
    act(() => {
      reloaded = result.current.reload();
    });
    await act(async () => {
      pending[2]?.resolve('fresh');
      await reloaded;
    });
    expect(result.current).toMatchObject({ data: 'fresh', error: null });
  });

  it('takes the answer an action gave without asking again', async () => {
    const { load, pending } = answers<string[]>();
    const { result } = renderHook(() => useQuery('list', load));
    await act(async () => pending[0]?.resolve(['a', 'b']));
    act(() => result.current.setData((current) => current?.filter((item) => item !== 'a') ?? null));
    expect(result.current.data).toEqual(['b']);
    expect(pending).toHaveLength(1);
  });
});
