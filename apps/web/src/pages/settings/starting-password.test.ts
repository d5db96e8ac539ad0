import { describe, expect, it } from 'vitest';
import { registerRequest } from '@stockwise/contract';
import { generateStartingPassword } from './starting-password.ts';

describe('a generated starting password', () => {
  it('is four groups of four unambiguous characters that the registration accepts, new each time', () => {
    const passwords = Array.from({ length: 200 }, generateStartingPassword);
    for (const password of passwords) {
      expect(password).toMatch(/^[a-km-zA-HJ-NP-Z2-9]{4}(-[a-km-zA-HJ-NP-Z2-9]{4}){3}$/);
      expect(registerRequest.shape.password.safeParse(password).success).toBe(true);
    }
    expect(new Set(passwords).size).toBe(passwords.length);
  });
});
