import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { packStamp, stampShape, unpackStamp } from '../../src/core/time-stamps.js';

describe('time stamps packed as seconds', () => {
  it('packs every real time of each shape and gives it back', () => {
    const when = fc.date({ min: new Date('1000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true });
    fc.assert(
      fc.property(when, (d) => {
        const iso = d.toISOString();
        for (const text of [iso.slice(0, 19), iso.slice(5, 19), iso.slice(11, 19)]) {
          const shape = stampShape(text);
          expect(shape).not.toBeNull();
          if (shape === null) return;
          const seconds = packStamp(text, shape);
          expect(seconds).not.toBeNull();
          expect(unpackStamp(seconds ?? Number.NaN, shape)).toBe(text);
        }
      }),
    );
  });

  it('packs nothing that would not come back as written', () => {
    const digit = fc.constantFrom(...'0123456789');
    const near = fc.tuple(fc.array(digit, { minLength: 14, maxLength: 14 }), fc.constantFrom('-', ':', 'T', ' ', 'x')).map(([d, odd]) => {
      const text = `${d.slice(0, 4).join('')}-${d.slice(4, 6).join('')}-${d.slice(6, 8).join('')}T${d.slice(8, 10).join('')}:${d.slice(10, 12).join('')}:${d.slice(12, 14).join('')}`;
      return odd === '-' ? text : text.replace(/T/, odd);
    });
    fc.assert(
      fc.property(fc.oneof(near, near.map((t) => t.slice(5)), near.map((t) => t.slice(11)), fc.string({ maxLength: 20 })), (text) => {
        for (const shape of ['dated', 'yearless', 'clock'] as const) {
          const seconds = packStamp(text, shape);
          if (seconds !== null) expect(unpackStamp(seconds, shape)).toBe(text);
        }
      }),
      { numRuns: 5000 },
    );
    expect(packStamp('02-29T12:00:00', 'yearless')).not.toBeNull();
    expect(packStamp('2025-02-29T12:00:00', 'dated')).toBeNull();
    expect(packStamp('0099-01-01T00:00:00', 'dated')).toBeNull();
    expect(stampShape('2026-01-01 00:00:00')).toBeNull();
    expect(packStamp('24:00:00', 'clock')).toBeNull();
    expect(packStamp('9:00:00', 'clock')).toBeNull();
    expect(stampShape('04:40:55')).toBe('clock');
  });
});
