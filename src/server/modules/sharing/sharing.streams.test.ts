import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DomainEvent } from '../../lib/events';
import { type OpenShare, SHARE_CHANGED_GAP_MS, SHARE_STREAMS_PER_IP, type ShareSink, ShareStreams } from './sharing.streams';

const P = '11111111-1111-4111-8111-111111111111';
const T = '22222222-2222-4222-8222-222222222222';
const share: OpenShare = { projectId: P, teamId: T };
const taskEvent = (projectId = P) =>
  ({ type: 'task.updated', teamId: T, actorId: '', taskId: 'x', projectId }) as unknown as DomainEvent;
const projectEvent = (projectId = P) => ({ type: 'project.updated', teamId: T, actorId: '', projectId }) as DomainEvent;

function sink(ip = '10.0.0.1', keepsUp = true) {
  const s: ShareSink & { text: string; ended: boolean } = {
    ip,
    text: '',
    ended: false,
    write: (t: string) => {
      s.text += t;
      return keepsUp;
    },
    end: () => {},
  };
  return s;
}

describe('ShareStreams (the shared boards’ streams of one instance)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function setup(lookup: (hash: string) => Promise<OpenShare | null> = async () => share) {
    const spy = vi.fn(lookup);
    const streams = new ShareStreams(spy);
    const add = (s: ReturnType<typeof sink>, hash = 'h1') => {
      const remove = streams.add(hash, share, s, streams.generation);
      s.end = () => {
        s.ended = true;
        remove();
      };
      return s;
    };
    return { streams, spy, add };
  }

  it("a task event: one `changed` per stream, no database read; another project's: nothing", async () => {
    const { streams, spy, add } = setup();
    const a = add(sink());
    const b = add(sink('10.0.0.2'));
    streams.onEvent(taskEvent('33333333-3333-4333-8333-333333333333'));
    streams.onEvent(taskEvent());
    streams.onEvent(taskEvent());
    await vi.advanceTimersByTimeAsync(100);
    expect(a.text).toBe('event: changed\ndata: changed\n\n');
    expect(b.text).toBe(a.text);
    expect(spy).not.toHaveBeenCalled();
    // At most one a second.
    streams.onEvent(taskEvent());
    await vi.advanceTimersByTimeAsync(100);
    expect(a.text.split('changed\n\n').length - 1).toBe(1);
    await vi.advanceTimersByTimeAsync(SHARE_CHANGED_GAP_MS);
    expect(a.text.split('event: changed').length - 1).toBe(2);
  });

  it('a project event checks the link once for all its streams, and ends them all when it is gone', async () => {
    let open = true;
    const { streams, spy, add } = setup(async () => (open ? share : null));
    const list = [add(sink()), add(sink()), add(sink())];
    streams.onEvent(projectEvent());
    await vi.advanceTimersByTimeAsync(100);
    expect(spy).toHaveBeenCalledTimes(1);
    expect(list.every((s) => !s.ended && s.text.includes('event: changed'))).toBe(true);
    open = false;
    await vi.advanceTimersByTimeAsync(SHARE_CHANGED_GAP_MS);
    streams.onEvent(projectEvent());
    await vi.advanceTimersByTimeAsync(100);
    expect(spy).toHaveBeenCalledTimes(2);
    expect(list.every((s) => s.ended)).toBe(true);
    expect(streams.openStreams).toBe(0);
  });

  it('a reader that does not keep up is cut off; an address has a bound', async () => {
    const { streams, add } = setup();
    const slow = add(sink('10.0.0.9', false));
    const fine = add(sink());
    streams.onEvent(taskEvent());
    await vi.advanceTimersByTimeAsync(100);
    expect(slow.ended).toBe(true);
    expect(fine.ended).toBe(false);
    for (let i = 1; i < SHARE_STREAMS_PER_IP; i++) add(sink());
    expect(streams.admits('10.0.0.1')).toBe(false);
    expect(streams.admits('10.0.0.2')).toBe(true);
    fine.end();
    expect(streams.admits('10.0.0.1')).toBe(true);
  });

  it('a stream opened across an event that may have ended its link checks it again', async () => {
    const { streams, spy } = setup(async () => null);
    const generation = streams.generation;
    streams.onEvent(projectEvent());
    const s = sink();
    const remove = streams.add('h2', share, s, generation);
    s.end = () => {
      s.ended = true;
      remove();
    };
    await vi.advanceTimersByTimeAsync(100);
    expect(spy).toHaveBeenCalledWith('h2');
    expect(s.ended).toBe(true);
  });
});
