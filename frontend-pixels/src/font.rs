//! Glyph lookup: the public-domain 8×8 bitmaps of `font8x8`, plus a few classic roguelike
//! symbols drawn here, and a visible replacement glyph for everything else.
//!
//! A [`Glyph`] is eight rows, top first; in each row bit 0 is the leftmost pixel
//! (the `font8x8` convention).

use font8x8::UnicodeFonts;
use font8x8::legacy::BASIC_LEGACY;

/// Eight rows of eight pixels, top row first, bit 0 = leftmost pixel.
pub type Glyph = [u8; 8];

/// Drawn for any character the font lacks (and for control characters): a hollow box,
/// so a missing glyph is visible instead of silently blank.
pub const REPLACEMENT: Glyph = [0x00, 0x7E, 0x42, 0x42, 0x42, 0x42, 0x7E, 0x00];

/// Reverse the bits of each row: the extra glyphs below are written MSB-left (the way the
/// IBM PC BIOS font is usually printed), the renderer wants bit 0 on the left.
const fn lsb_left(rows: [u8; 8]) -> Glyph {
    let mut out = [0u8; 8];
    let mut i = 0;
    while i < 8 {
        out[i] = rows[i].reverse_bits();
        i += 1;
    }
    out
}

/// Symbols roguelikes like that `font8x8` does not have (CP437-style shapes).
const EXTRA: [(char, Glyph); 24] = [
    (
        '\u{2020}',
        lsb_left([0x18, 0x18, 0x7E, 0x18, 0x18, 0x18, 0x18, 0x00]),
    ), // † dagger
    (
        '\u{2022}',
        lsb_left([0x00, 0x00, 0x18, 0x3C, 0x3C, 0x18, 0x00, 0x00]),
    ), // • bullet
    (
        '\u{2026}',
        lsb_left([0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xDB, 0x00]),
    ), // … ellipsis
    (
        '\u{2190}',
        lsb_left([0x00, 0x30, 0x60, 0xFE, 0x60, 0x30, 0x00, 0x00]),
    ), // ←
    (
        '\u{2191}',
        lsb_left([0x18, 0x3C, 0x7E, 0x18, 0x18, 0x18, 0x18, 0x00]),
    ), // ↑
    (
        '\u{2192}',
        lsb_left([0x00, 0x18, 0x0C, 0xFE, 0x0C, 0x18, 0x00, 0x00]),
    ), // →
    (
        '\u{2193}',
        lsb_left([0x18, 0x18, 0x18, 0x18, 0x7E, 0x3C, 0x18, 0x00]),
    ), // ↓
    (
        '\u{2219}',
        lsb_left([0x00, 0x00, 0x00, 0x18, 0x18, 0x00, 0x00, 0x00]),
    ), // ∙
    (
        '\u{221A}',
        lsb_left([0x0F, 0x0C, 0x0C, 0x0C, 0xEC, 0x6C, 0x3C, 0x1C]),
    ), // √
    (
        '\u{221E}',
        lsb_left([0x00, 0x00, 0x7E, 0xDB, 0xDB, 0x7E, 0x00, 0x00]),
    ), // ∞
    (
        '\u{2248}',
        lsb_left([0x00, 0x76, 0xDC, 0x00, 0x76, 0xDC, 0x00, 0x00]),
    ), // ≈ water
    (
        '\u{2261}',
        lsb_left([0x00, 0x7E, 0x00, 0x7E, 0x00, 0x7E, 0x00, 0x00]),
    ), // ≡
    (
        '\u{2302}',
        lsb_left([0x00, 0x10, 0x38, 0x6C, 0xC6, 0xC6, 0xFE, 0x00]),
    ), // ⌂
    (
        '\u{25A0}',
        lsb_left([0x00, 0x00, 0x3C, 0x3C, 0x3C, 0x3C, 0x00, 0x00]),
    ), // ■
    (
        '\u{25B2}',
        lsb_left([0x00, 0x18, 0x3C, 0x7E, 0xFF, 0xFF, 0x00, 0x00]),
    ), // ▲
    (
        '\u{25BC}',
        lsb_left([0x00, 0xFF, 0xFF, 0x7E, 0x3C, 0x18, 0x00, 0x00]),
    ), // ▼
    (
        '\u{25CB}',
        lsb_left([0x00, 0x3C, 0x66, 0x42, 0x42, 0x66, 0x3C, 0x00]),
    ), // ○
    (
        '\u{25CF}',
        lsb_left([0x00, 0x3C, 0x7E, 0x7E, 0x7E, 0x7E, 0x3C, 0x00]),
    ), // ●
    (
        '\u{263A}',
        lsb_left([0x7E, 0x81, 0xA5, 0x81, 0xBD, 0x99, 0x81, 0x7E]),
    ), // ☺
    (
        '\u{263C}',
        lsb_left([0x99, 0x5A, 0x3C, 0xE7, 0xE7, 0x3C, 0x5A, 0x99]),
    ), // ☼
    (
        '\u{2660}',
        lsb_left([0x10, 0x38, 0x7C, 0xFE, 0xFE, 0x7C, 0x10, 0x38]),
    ), // ♠
    (
        '\u{2663}',
        lsb_left([0x38, 0x7C, 0x38, 0xFE, 0xFE, 0xD6, 0x10, 0x38]),
    ), // ♣ tree
    (
        '\u{2665}',
        lsb_left([0x6C, 0xFE, 0xFE, 0xFE, 0x7C, 0x38, 0x10, 0x00]),
    ), // ♥
    (
        '\u{2666}',
        lsb_left([0x10, 0x38, 0x7C, 0xFE, 0x7C, 0x38, 0x10, 0x00]),
    ), // ♦
];

/// The glyph for `ch` above U+007F: font8x8's own sets first, then [`EXTRA`]. A linear
/// search (about 500 entries, no table in a global): the rasteriser asks once per character
/// and size, and keeps the result.
fn lookup(ch: char) -> Option<Glyph> {
    let sets = [
        font8x8::LATIN_FONTS.iter(),
        font8x8::GREEK_FONTS.iter(),
        font8x8::BOX_FONTS.iter(),
        font8x8::BLOCK_FONTS.iter(),
        font8x8::HIRAGANA_FONTS.iter(),
        font8x8::MISC_FONTS.iter(),
    ];
    for set in sets {
        if let Some(f) = set.into_iter().find(|f| f.char() == ch) {
            return Some(f.byte_array());
        }
    }
    EXTRA.iter().find(|&&(c, _)| c == ch).map(|&(_, g)| g)
}

/// The bitmap for `ch`, or `None` when the font has no glyph for it.
///
/// Control characters (C0, DEL, C1) have no glyph. Space and other blanks have an
/// all-zero glyph.
#[must_use]
pub fn glyph(ch: char) -> Option<Glyph> {
    let code = u32::from(ch);
    if code < 0x20 || (0x7F..0xA0).contains(&code) {
        return None;
    }
    if code < 0x80 {
        // Printable ASCII: index straight into the basic table.
        return BASIC_LEGACY.get(code as usize).copied();
    }
    lookup(ch)
}

/// The bitmap for `ch`, or [`REPLACEMENT`] when the font lacks it. Never panics.
#[must_use]
pub fn glyph_or_replacement(ch: char) -> Glyph {
    glyph(ch).unwrap_or(REPLACEMENT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_box_block_and_latin_are_covered() {
        for ch in (0x20u8..0x7F).map(char::from) {
            assert!(glyph(ch).is_some(), "{ch:?}");
        }
        for ch in ['─', '│', '┌', '┐', '└', '┘', '═', '║', '╬'] {
            assert!(glyph(ch).is_some(), "{ch:?}");
        }
        for ch in ['░', '▒', '▓', '█', '▀', '▄'] {
            assert!(glyph(ch).is_some(), "{ch:?}");
        }
        for ch in ['é', 'ñ', '·', '°', 'Ω', '≤'] {
            assert!(glyph(ch).is_some(), "{ch:?}");
        }
    }

    #[test]
    fn font8x8_wins_over_extras_and_extras_fill_gaps() {
        // '•' and '♣' are not in font8x8: they come from EXTRA.
        assert_eq!(glyph('•'), Some(EXTRA[1].1));
        assert!(glyph('♣').is_some());
        // A char both sets have reads as font8x8's.
        for &(c, g) in EXTRA.iter() {
            if let Some(f) = font8x8::MISC_FONTS.iter().find(|f| f.char() == c) {
                assert_eq!(glyph(c), Some(f.byte_array()));
                assert_ne!(g, [0; 8]);
            }
        }
    }

    #[test]
    fn missing_and_control_chars_have_no_glyph_but_a_replacement() {
        for ch in [
            '\u{0}',
            '\n',
            '\u{7F}',
            '\u{85}',
            '\u{1F600}',
            '\u{FFFF}',
            '漢',
        ] {
            assert_eq!(glyph(ch), None, "{ch:?}");
            assert_eq!(glyph_or_replacement(ch), REPLACEMENT);
        }
        assert_ne!(REPLACEMENT, [0; 8], "the replacement must be visible");
    }

    #[test]
    fn space_is_blank_and_at_sign_is_not() {
        assert_eq!(glyph(' '), Some([0; 8]));
        assert_ne!(glyph('@'), Some([0; 8]));
    }
}
