import { describe, expect, it } from 'vitest';
import { closeAction, colorFor, wsOrigin } from './collab';

describe('the note socket', () => {
  it('maps close codes to what the client does', () => {
    expect(closeAction(4401)).toBe('new-ticket');
    expect(closeAction(4403)).toBe('forbidden');
    expect(closeAction(4404)).toBe('gone');
    expect(closeAction(1006)).toBe('retry');
  });

  it('uses wss behind https', () => {
    expect(wsOrigin({ protocol: 'https:', host: 'crew.example' })).toBe('wss://crew.example');
    expect(wsOrigin({ protocol: 'http:', host: '127.0.0.1:3207' })).toBe('ws://127.0.0.1:3207');
  });
});

describe('colorFor', () => {
  it('gives a person the same colour everywhere', () => {
    const id = '5f0c2b7e-8a1d-4c55-9e1a-0b8c1d2e3f40';
    expect(colorFor(id)).toBe(colorFor(id));
    expect(colorFor(id)).toMatch(/^#[0-9a-f]{6}$/);
  });
});
