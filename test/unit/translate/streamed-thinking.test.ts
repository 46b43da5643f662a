import { describe, expect, it } from 'vitest';
import { StreamedThinking } from '../../../src/translate/streamed-thinking.js';

function streamed(...pieces: string[]): StreamedThinking {
  const thinking = new StreamedThinking();
  for (const piece of pieces) thinking.append(piece);
  return thinking;
}

describe('StreamedThinking', () => {
  it('a text equal to what streamed adds nothing; one that continues it adds the rest', () => {
    expect(streamed('Let me ', 'think.').restOf('Let me think.')).toBe('');
    expect(streamed('Let me ').restOf('Let me think.')).toBe('think.');
    expect(streamed().restOf('All new.')).toBe('All new.');
  });

  it('a text that does not begin with what streamed, or is shorter, is not its continuation', () => {
    expect(streamed('Let me think.').restOf('Let me see.  ')).toBeUndefined();
    expect(streamed('Let me think.').restOf('Let me')).toBeUndefined();
  });

  it('pieces cut inside a surrogate pair or a multibyte character compare as the whole text', () => {
    const text = 'Pensons 🤔 à ça';
    const at = text.indexOf('🤔') + 1;
    expect(streamed(text.slice(0, at), text.slice(at)).restOf(`${text}!`)).toBe('!');
  });

  it('keeps accepting text after a comparison', () => {
    const thinking = streamed('One ');
    expect(thinking.restOf('One two')).toBe('two');
    thinking.append('two');
    expect(thinking.restOf('One two')).toBe('');
  });
});
