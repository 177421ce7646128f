//! The play screen's map: its layout, the viewport that follows the hero, the torchlight and
//! memory palette, tiles, and the hover line.

use alembic::{Loc, Rgb};
use alembic_ui::{Cell, ColourDepth, Frame, Rect, TileSupport};

use super::colours::{self, PALETTE};
use alembic_alchemy::{
    self as alchemy,
    rules::level_box,
    view::{CellView, CellViewer, TileTable, cell_tile, hero_id, seen_light_map, visible},
};

// ---------------------------------------------------------------------------------------------
// Layout

/// Where the parts of the play screen go in an area.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The message lines on top.
    pub msgs: Rect,
    /// The map viewport.
    pub map: Rect,
    /// The status panel (right side) or status lines (bottom, when narrow).
    pub status: Rect,
    /// Whether the status is a side panel.
    pub side: bool,
}

/// Width of the side panel.
const SIDE_W: u16 = 24;

/// The level beside the side panel, without the message rows: what the board of
/// [`crate::ruleset`] needs (the session draws the messages above it).
#[must_use]
pub fn play_area() -> (u16, u16) {
    let level = level_box(0);
    let cells = |n: i32| u16::try_from(n).unwrap_or(u16::MAX);
    (
        cells(level.width()).saturating_add(SIDE_W),
        cells(level.height()),
    )
}

/// The play screen's layout in `area`: `msg_rows` rows of messages on top (none when the
/// session above draws them), the status as a side panel when there is room (else 2 lines
/// at the bottom), the map in the rest.
#[must_use]
pub fn layout_with(area: Rect, msg_rows: u16) -> Layout {
    let (msgs, rest) = area.split_top(msg_rows);
    if area.width >= 64 {
        let map = Rect::new(rest.x, rest.y, rest.width - SIDE_W, rest.height);
        let status = Rect::new(rest.x + rest.width - SIDE_W, rest.y, SIDE_W, rest.height);
        Layout {
            msgs,
            map,
            status,
            side: true,
        }
    } else {
        let (map, status) = rest.split_bottom(2);
        Layout {
            msgs,
            map,
            status,
            side: false,
        }
    }
}

/// How map locations land on screen: the session's map viewport (the hero in the middle,
/// as DCSS keeps the player; tiles one or two cells wide), shared with every game.
pub use alembic_session::mapview::Viewport as MapView;

/// What the board shows: a game, and how (tiles or letters, the look cursor, which key
/// hints). The play screen, the replay viewer and the session's board all draw from one.
#[derive(Clone, Copy, Debug)]
pub struct Shown<'a> {
    /// The game drawn.
    pub game: &'a alembic::Game,
    /// Tiles rather than letters, where the frontend draws tiles.
    pub tiles: bool,
    /// The look cursor, which the map follows when it leaves the view around the hero.
    pub cursor: Option<Loc>,
    /// The key hints at the foot of the status panel.
    pub hints: Hints,
}

/// Which key hints the status panel ends with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hints {
    /// None (the screen around the board shows its own).
    None,
    /// The play keys.
    Play,
    /// The replay viewer's keys.
    Watch,
}

impl<'a> Shown<'a> {
    /// `game` in letters, with no cursor and no hints.
    #[must_use]
    pub fn game(game: &'a alembic::Game) -> Self {
        Shown {
            game,
            tiles: false,
            cursor: None,
            hints: Hints::None,
        }
    }
}

/// How the map is drawn on a frontend with `support`: letters, or tiles one or two cells
/// wide (only when the player has tiles on).
#[must_use]
pub fn tile_mode(shown: &Shown<'_>, support: TileSupport) -> TileSupport {
    if shown.tiles {
        support
    } else {
        TileSupport::None
    }
}

/// The map viewport in the map's rectangle `rect` on a frontend with `tiles` support:
/// centred on the hero, or on the look cursor when the cursor has left the hero-centred
/// view. `None` without a hero.
#[must_use]
pub fn map_view_in(shown: &Shown<'_>, rect: Rect, tiles: TileSupport) -> Option<MapView> {
    let game = shown.game;
    let at = game.things().location(hero_id(game).ok()?).ok()?;
    let level = level_box(at.z);
    let w = if tile_mode(shown, tiles) == TileSupport::Double {
        2
    } else {
        1
    };
    let v = MapView::centred(rect, level, at, w);
    match shown.cursor {
        Some(c) if c.z == at.z && !v.shows(c) => Some(MapView::centred(rect, level, c, w)),
        _ => Some(v),
    }
}

// ---------------------------------------------------------------------------------------------
// Colours

/// Raise a light so the far edge of the torch stays readable: `floor` of full brightness
/// always, the engine's light on top.
pub(super) fn lift(light: Rgb, floor: f32) -> Rgb {
    let f = |c: u8| (floor * 255.0 + (1.0 - floor) * f32::from(c)).round() as u8;
    Rgb::new(f(light.r), f(light.g), f(light.b))
}

/// Backgrounds of remembered cells, `(floor, wall)`, for a frontend showing `depth` colours.
///
/// Remembered places are drawn as Brogue draws them: desaturated, cooler and darker than
/// what the torch lights, but clearly visible. The contrast rule (tested at every depth
/// after the terminal's rounding): remembered floor against unexplored black, and
/// remembered wall against remembered floor, each at least 1.5:1 in relative luminance.
/// Sixteen colours cannot show a dark grey, so there memory is grey on black.
#[must_use]
pub fn memory_colours(depth: ColourDepth) -> (Rgb, Rgb) {
    match depth {
        ColourDepth::TrueColour | ColourDepth::Palette256 => {
            (Rgb::new(44, 46, 60), Rgb::new(86, 82, 80))
        }
        ColourDepth::Ansi16 => (Rgb::new(110, 110, 110), Rgb::new(200, 200, 200)),
    }
}

/// The floor's own colour under full torchlight (its tile's background when brighter).
const LIT_FLOOR: Rgb = Rgb::new(62, 56, 46);
/// A wall's or rock's own colour under full torchlight.
const LIT_WALL: Rgb = Rgb::new(124, 110, 94);

/// The colour of a lit wall's glyph (`#`) on its face `bg`: the face darkened, or lifted
/// when the face is dim, whichever contrasts more, so the mark reads at every light (at
/// least 3:1 against the face).
#[must_use]
pub fn wall_mark(bg: Rgb) -> Rgb {
    let d = |v: u8| (u16::from(v) * 3 / 10) as u8;
    let dark = Rgb::new(d(bg.r), d(bg.g), d(bg.b));
    let light = lift(bg, 0.6);
    if contrast(dark, bg) >= contrast(light, bg) {
        dark
    } else {
        light
    }
}

/// A torchlit wall's face at light `lit` (white: full torchlight).
#[must_use]
pub fn lit_wall_face(lit: Rgb) -> Rgb {
    LIT_WALL.modulate(lift(lit, 0.45))
}

/// Relative luminance (WCAG 2) of `c`, 0–1.
#[must_use]
pub fn luminance(c: Rgb) -> f64 {
    let lin = |v: u8| SRGB_LINEAR[usize::from(v)];
    0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b)
}

/// An sRGB channel, 0–255, as linear light (WCAG 2): `v / 12.92` up to 0.04045, else
/// `((v + 0.055) / 1.055)^2.4`, with `v` the channel over 255. A table, so a frame's wall
/// marks cost no `powf` (2.7% of the web server's CPU under load); a test checks every
/// entry against the formula.
#[allow(clippy::unreadable_literal, clippy::excessive_precision)]
const SRGB_LINEAR: [f64; 256] = [
    0.0,
    0.0003035269835488375,
    0.000607053967097675,
    0.0009105809506465125,
    0.00121410793419535,
    0.0015176349177441874,
    0.001821161901293025,
    0.0021246888848418626,
    0.0024282158683907,
    0.0027317428519395373,
    0.003035269835488375,
    0.003346535763899161,
    0.003676507324047436,
    0.004024717018496307,
    0.004391442037410293,
    0.004776953480693729,
    0.005181516702338386,
    0.005605391624202723,
    0.006048833022857054,
    0.006512090792594475,
    0.006995410187265387,
    0.007499032043226175,
    0.008023192985384994,
    0.008568125618069307,
    0.009134058702220787,
    0.00972121732023785,
    0.010329823029626936,
    0.010960094006488246,
    0.011612245179743885,
    0.012286488356915872,
    0.012983032342173012,
    0.013702083047289686,
    0.014443843596092545,
    0.01520851442291271,
    0.01599629336550963,
    0.016807375752887384,
    0.017641954488384078,
    0.018500220128379697,
    0.019382360956935723,
    0.0202885630566524,
    0.021219010376003555,
    0.02217388479338738,
    0.02315336617811041,
    0.024157632448504756,
    0.02518685962736163,
    0.026241221894849898,
    0.027320891639074894,
    0.028426039504420793,
    0.0295568344378088,
    0.030713443732993635,
    0.03189603307301153,
    0.033104766570885055,
    0.03433980680868217,
    0.03560131487502034,
    0.03688945040110004,
    0.0382043715953465,
    0.03954623527673284,
    0.04091519690685319,
    0.042311410620809675,
    0.043735029256973465,
    0.04518620438567554,
    0.046665086336880095,
    0.04817182422688942,
    0.04970656598412723,
    0.05126945837404324,
    0.052860647023180246,
    0.05448027644244237,
    0.05612849004960009,
    0.05780543019106723,
    0.0595112381629812,
    0.06124605423161761,
    0.06301001765316767,
    0.06480326669290577,
    0.06662593864377289,
    0.06847816984440017,
    0.07036009569659588,
    0.07227185068231748,
    0.07421356838014963,
    0.07618538148130785,
    0.07818742180518633,
    0.08021982031446832,
    0.0822827071298148,
    0.08437621154414882,
    0.08650046203654976,
    0.08865558628577294,
    0.09084171118340768,
    0.09305896284668745,
    0.0953074666309647,
    0.09758734714186246,
    0.09989872824711389,
    0.10224173308810132,
    0.10461648409110419,
    0.10702310297826761,
    0.10946171077829933,
    0.1119324278369056,
    0.11443537382697373,
    0.11697066775851084,
    0.11953842798834562,
    0.12213877222960187,
    0.12477181756095049,
    0.12743768043564743,
    0.1301364766903643,
    0.13286832155381798,
    0.13563332965520566,
    0.13843161503245183,
    0.14126329114027164,
    0.14412847085805777,
    0.14702726649759498,
    0.14995978981060856,
    0.15292615199615017,
    0.1559264637078274,
    0.1589608350608804,
    0.162029375639111,
    0.1651321945016676,
    0.16826940018969075,
    0.1714411007328226,
    0.17464740365558504,
    0.17788841598362912,
    0.18116424424986022,
    0.184474994500441,
    0.18782077230067787,
    0.19120168274079138,
    0.1946178304415758,
    0.19806931955994886,
    0.20155625379439707,
    0.20507873639031693,
    0.20863687014525575,
    0.21223075741405523,
    0.21586050011389926,
    0.2195261997292692,
    0.2232279573168085,
    0.22696587351009836,
    0.23074004852434915,
    0.23455058216100522,
    0.238397573812271,
    0.24228112246555486,
    0.24620132670783548,
    0.25015828472995344,
    0.25415209433082675,
    0.2581828529215958,
    0.26225065752969623,
    0.26635560480286247,
    0.2704977910130658,
    0.27467731206038465,
    0.2788942634768104,
    0.2831487404299921,
    0.2874408377269175,
    0.29177064981753587,
    0.2961382707983211,
    0.3005437944157765,
    0.3049873140698863,
    0.30946892281750854,
    0.31398871337571754,
    0.31854677812509186,
    0.32314320911295075,
    0.3277780980565422,
    0.33245153634617935,
    0.33716361504833037,
    0.3419144249086609,
    0.3467040563550296,
    0.35153259950043936,
    0.3564001441459435,
    0.3613067797835095,
    0.3662525955988395,
    0.3712376804741491,
    0.3762621229909065,
    0.38132601143253014,
    0.386429433787049,
    0.39157247774972326,
    0.39675523072562685,
    0.4019777798321958,
    0.4072402119017367,
    0.41254261348390375,
    0.4178850708481375,
    0.4232676699860717,
    0.4286904966139066,
    0.43415363617474895,
    0.4396571738409188,
    0.44520119451622786,
    0.45078578283822346,
    0.45641102318040466,
    0.4620769996544071,
    0.467783796112159,
    0.47353149614800955,
    0.4793201831008268,
    0.4851499400560704,
    0.4910208498478356,
    0.4969329950608704,
    0.5028864580325687,
    0.5088813208549338,
    0.5149176653765214,
    0.5209955732043543,
    0.5271151257058131,
    0.5332764040105052,
    0.5394794890121072,
    0.5457244613701866,
    0.5520114015120001,
    0.5583403896342679,
    0.5647115057049292,
    0.5711248294648731,
    0.5775804404296506,
    0.5840784178911641,
    0.5906188409193369,
    0.5972017883637634,
    0.6038273388553378,
    0.6104955708078648,
    0.6172065624196511,
    0.6239603916750761,
    0.6307571363461468,
    0.6375968739940326,
    0.6444796819705821,
    0.6514056374198242,
    0.6583748172794485,
    0.665387298282272,
    0.6724431569576875,
    0.6795424696330938,
    0.6866853124353135,
    0.6938717612919899,
    0.7011018919329731,
    0.7083757798916868,
    0.7156935005064807,
    0.7230551289219693,
    0.7304607400903537,
    0.7379104087727308,
    0.7454042095403874,
    0.7529422167760779,
    0.7605245046752924,
    0.768151147247507,
    0.7758222183174236,
    0.7835377915261935,
    0.7912979403326302,
    0.799102738014409,
    0.8069522576692516,
    0.8148465722161012,
    0.8227857543962835,
    0.8307698767746546,
    0.83879901174074,
    0.846873231509858,
    0.8549926081242338,
    0.8631572134541023,
    0.8713671191987972,
    0.8796223968878317,
    0.8879231178819663,
    0.8962693533742664,
    0.9046611743911496,
    0.9130986517934192,
    0.9215818562772946,
    0.9301108583754237,
    0.938685728457888,
    0.9473065367331999,
    0.9559733532492861,
    0.9646862478944651,
    0.9734452903984125,
    0.9822505503331171,
    0.9911020971138298,
    1.0,
];

/// The contrast ratio (WCAG 2) of two colours, at least 1.
#[must_use]
pub fn contrast(a: Rgb, b: Rgb) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// A remembered glyph on the memory background `bg`: its colour desaturated and cooled, and
/// lifted so it stands out from the background.
pub(super) fn memory_glyph(c: Rgb, bg: Rgb) -> Rgb {
    let r = remembered(c);
    let lift = |v: u8, b: u8| v.max(b).saturating_add(48).min(230);
    Rgb::new(lift(r.r, bg.r), lift(r.g, bg.g), lift(r.b, bg.b))
}

/// Remembered, not seen: dim and cooled towards blue-grey.
pub(super) fn remembered(c: Rgb) -> Rgb {
    let lum = 0.3 * f32::from(c.r) + 0.59 * f32::from(c.g) + 0.11 * f32::from(c.b);
    let mix = |v: u8, k: f32| ((0.5 * f32::from(v) + 0.5 * lum) * k).round().min(255.0) as u8;
    Rgb::new(mix(c.r, 0.40), mix(c.g, 0.44), mix(c.b, 0.58))
}

/// HP colour: green from half up, yellow below half, red below a quarter.
#[must_use]
pub fn health_colour(hp: i32, max: i32) -> Rgb {
    let (hp, max) = (i64::from(hp), i64::from(max.max(1)));
    if hp * 2 >= max {
        colours::GOOD
    } else if hp * 4 >= max {
        colours::FAIR
    } else {
        colours::BAD
    }
}

// ---------------------------------------------------------------------------------------------
// Drawing

pub(super) fn blank(bg: Rgb) -> Cell {
    Cell::blank(PALETTE.text, bg)
}

/// Draw the map of the game `shown` into `view`.
///
/// # Errors
/// An engine error reading the game (a bug); the caller shows it.
pub fn draw_map(
    shown: &Shown<'_>,
    frame: &mut Frame,
    view: &MapView,
) -> Result<(), alembic::Error> {
    let game = shown.game;
    let hero = hero_id(game)?;
    let seen = visible(game)?;
    let light = seen_light_map(game, &seen)?;
    let tiles = tile_mode(shown, frame.tiles());
    let memory = memory_colours(frame.colour_depth());
    let table = TileTable::new(game);
    let cells = CellViewer::new(game, &seen);
    view.draw_cells(frame, tiles, |l| {
        let Some(CellView { glyph, visible, .. }) = cells.at(l)? else {
            return Ok(None);
        };
        // Solid rock is a blank glyph on a near-black tile: give it a stone-coloured
        // face so cave walls read as walls.
        let rock = glyph.ch == ' ';
        let base_bg = if rock { colours::ROCK_BG } else { glyph.bg };
        let cell = if visible {
            let lit = light.get(l);
            let on_top = alchemy::view::seen_top_thing(game, l);
            let blocks = table.blocks(game, l);
            // Torchlit floor is warm and brighter than remembered floor.
            // Walls stand out brighter than the floor, as in Brogue.
            let floor = if blocks { LIT_WALL } else { LIT_FLOOR };
            let base = Rgb::new(
                base_bg.r.max(floor.r),
                base_bg.g.max(floor.g),
                base_bg.b.max(floor.b),
            );
            let bg = base.modulate(lift(lit, 0.45));
            let fg = match on_top {
                Some(t) if t == hero => colours::HERO,
                // Creatures and items keep their saturated colours even at the torch's edge.
                Some(_) => glyph.fg.modulate(lift(lit, 0.8)),
                // A wall's mark is cut into its lit face, so it reads.
                None if blocks => wall_mark(bg),
                None => glyph.fg.modulate(lift(lit, 0.30)),
            };
            Cell {
                ch: glyph.ch,
                fg,
                bg,
            }
        } else {
            let bg = if table.blocks(game, l) {
                memory.1
            } else {
                memory.0
            };
            Cell {
                ch: glyph.ch,
                fg: memory_glyph(glyph.fg, bg),
                bg,
            }
        };
        // A rock tile needs a lighter face than its background to show its texture.
        let cell = if rock && tiles != TileSupport::None {
            Cell {
                fg: lift(cell.bg, 0.2),
                ..cell
            }
        } else {
            cell
        };
        let tile = match tiles {
            TileSupport::None => None,
            _ => cell_tile(game, &seen, l)?,
        };
        Ok(Some((cell, tile)))
    })
}

#[cfg(test)]
mod tests {

    #[test]
    fn the_linear_light_table_is_the_formula_bit_for_bit() {
        for i in 0..=255u8 {
            let v = f64::from(i) / 255.0;
            let want = if v <= 0.040_45 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            };
            assert_eq!(
                SRGB_LINEAR[usize::from(i)].to_bits(),
                want.to_bits(),
                "channel {i}"
            );
        }
    }

    use super::*;

    #[test]
    fn the_play_area_is_the_level_beside_the_panel() {
        // 71 × 51 cells of level beside the 24-column panel; the session adds the messages,
        // so the board's play area must not count them.
        assert_eq!(play_area(), (95, 51));
    }
}
