// The starting password of an account an administrator adds: 16 random characters (about 93 bits)
// from an alphabet without look-alikes (no 0/O, 1/l/I), in groups of four, so it survives being
// read out or copied from a note.
const alphabet = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const groups = 4;
const groupLength = 4;
// Bytes at or above this are redrawn, so every character is equally likely.
const unbiasedLimit = 256 - (256 % alphabet.length);

export function generateStartingPassword(): string {
  const characters: string[] = [];
  while (characters.length < groups * groupLength) {
    for (const byte of crypto.getRandomValues(new Uint8Array(32))) {
      if (byte < unbiasedLimit && characters.length < groups * groupLength) characters.push(alphabet[byte % alphabet.length]!);
    }
  }
  return Array.from({ length: groups }, (_, group) => characters.slice(group * groupLength, (group + 1) * groupLength).join('')).join('-');
}
