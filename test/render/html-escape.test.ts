import { describe, expect, it } from 'vitest';
import { escapeHtml, html, trusted } from '../../src/render/html-escape.js';

describe('html tagged template', () => {
  it('escapes every interpolated value, in text and in attributes', () => {
    const name = `<img src=x onerror=alert(1)>`;
    const quote = `" onmouseover="x' &`;
    expect(html`<td title="${quote}">${name}</td>`.value).toBe('<td title="&quot; onmouseover=&quot;x&#39; &amp;">&lt;img src=x onerror=alert(1)&gt;</td>');
  });

  it('nests fragments and arrays without double escaping, and drops null/false', () => {
    const items = ['a<b', 'c&d'].map((s) => html`<li>${s}</li>`);
    expect(html`<ul>${items}${null}${false}${undefined}</ul>`.value).toBe('<ul><li>a&lt;b</li><li>c&amp;d</li></ul>');
    expect(html`${trusted('<svg/>')}${0}`.value).toBe('<svg/>0');
    expect(escapeHtml(null)).toBe('');
  });
});
