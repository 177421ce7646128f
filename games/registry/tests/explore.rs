//! Auto-explore, travel to stairs, running, resting and auto-fight: Alchemy's answers to
//! the shared session's journeys (`alembic_alchemy::journeys`), driven headlessly through
//! the session's play screen by the keys a player presses (`o`, `>`, `<`, `G`, `Z`, `s`,
//! `Tab`, Shift+direction), one step a tick.

use alembic::{Game, Loc};
use alembic_games::alchemy::ui::{self as alchemy_ui, ruleset::Alchemy};
use alembic_games::alchemy::{
    self, Rules,
    props::HPS,
    rules::{creatures_on_level, explored, hero, level_box, reachable},
};
use alembic_games::play::Session;
use alembic_session::Ruleset as _;
use alembic_session::journey::{MAX_STEPS, SEARCH_TURNS};
use alembic_ui::{App as _, Frame, Input, Key, Palette, ScreenStack};

type AlchemyUi = ScreenStack<Session<Alchemy>>;

/// Alchemy on the shared session, straight into play on `g`.
fn app(g: Game) -> AlchemyUi {
    alchemy_ui::session_with_game(g, None, false, false).expect("app")
}

/// How a press ended.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Ended {
    /// The session said why in its notice line ("Done exploring.", "Not with a rat in
    /// view.", "You stop fighting: you are badly hurt.").
    Said(String),
    /// It ended saying nothing more (arrived; or a step that said something, in the log).
    Quiet,
    /// The game is over.
    Over,
}

/// What one press did.
#[derive(Debug)]
struct Pressed {
    end: Ended,
    /// The lines the game said meanwhile (the message log's new lines).
    lines: Vec<String>,
    /// The steps taken: each tick (or the key itself) that changed the game.
    steps: usize,
}

impl Pressed {
    /// Explore ran out of places ("Done exploring." after walking, "There is nothing left
    /// to explore from here." at once): said in the notice, or in the log before a hint.
    fn done(&self) -> bool {
        const DONE: [&str; 2] = [
            "Done exploring.",
            "There is nothing left to explore from here.",
        ];
        matches!(&self.end, Ended::Said(w) if DONE.contains(&w.as_str()))
            || self.lines.iter().any(|l| DONE.contains(&l.as_str()))
    }

    fn said(&self, start: &str) -> bool {
        matches!(&self.end, Ended::Said(w) if w.starts_with(start))
    }
}

fn game(a: &AlchemyUi) -> &Game {
    a.ctx().game()
}

/// The notice line of the play screen (drawn in the accent colour under the messages).
fn notice(a: &mut AlchemyUi) -> Option<String> {
    let mut f = Frame::new(300, 60);
    a.render(&mut f);
    (0..3)
        .rev()
        .find(|&y| {
            f.get(0, y)
                .is_some_and(|c| c.fg == Palette::DEFAULT.accent && c.ch != ' ')
        })
        .map(|y| f.row_text(y).trim().to_owned())
}

/// Press `key` and let what it began run to its end, tick by tick; `watch` sees the game
/// before and after each step.
fn press_watching(a: &mut AlchemyUi, key: Input, watch: &mut dyn FnMut(&Game, &Game)) -> Pressed {
    let logged = a.ctx().messages().count();
    let mut steps = 0;
    let mut before = game(a).clone();
    let _ = a.handle_input(key);
    let mut ticks = 0;
    loop {
        if changed(&before, game(a)) {
            steps += 1;
            watch(&before, game(a));
        }
        if a.tick_interval().is_none() || ticks >= 10_000 {
            break;
        }
        before = game(a).clone();
        let _ = a.tick();
        ticks += 1;
    }
    let lines = a.ctx().messages().skip(logged).map(str::to_owned).collect();
    let over = a.ctx().rules().status(game(a)) != alembic_session::Status::Playing;
    let end = match (over, notice(a)) {
        (true, _) => Ended::Over,
        (false, Some(w)) => Ended::Said(w),
        (false, None) => Ended::Quiet,
    };
    Pressed { end, lines, steps }
}

/// Whether the world changed from `before` to `after`: their state hashes differ. Hashing
/// the whole world twice a tick was most of this file's time in a debug build, so the
/// answer is found without it where it can be: the same version (`ptr_eq`: every part the
/// hash reads is shared) is unchanged, and another turn (the hash reads the turn) changed.
fn changed(before: &Game, after: &Game) -> bool {
    !before.ptr_eq(after)
        && (before.turn() != after.turn() || before.state_hash() != after.state_hash())
}

fn press(a: &mut AlchemyUi, key: Input) -> Pressed {
    press_watching(a, key, &mut |_, _| {})
}

fn hero_at(g: &Game) -> Loc {
    g.things().location(hero(g).expect("hero")).expect("placed")
}

/// Travel (`G`) to `target`: the cursor moved there from the hero with the direction keys,
/// then Enter.
fn travel_to(a: &mut AlchemyUi, target: Loc) -> Pressed {
    let at = hero_at(game(a));
    let _ = a.handle_input(Input::ch('G'));
    let (dx, dy) = (target.x - at.x, target.y - at.y);
    let mut keys = Vec::new();
    keys.extend((0..dx.abs()).map(|_| if dx > 0 { 'l' } else { 'h' }));
    keys.extend((0..dy.abs()).map(|_| if dy > 0 { 'j' } else { 'k' }));
    for k in keys {
        let _ = a.handle_input(Input::ch(k));
    }
    press(a, Input::key(Key::Enter))
}

/// Whether the hero sees a hostile that threatens them (noticed them and would find its way
/// to them): the journeys' own rule, which refuses to set out then.
fn threat_in_view(rules: &Alchemy, g: &Game) -> bool {
    rules.journeys().expect("journeys").may_go(g).is_err()
}

/// A new game with every creature but the hero taken off level 1: undisturbed.
fn quiet_game(seed: u64, rules: &Rules) -> Game {
    without_monsters(alchemy::new_game(seed, rules).expect("game"))
}

fn explored_share(g: &Game) -> f64 {
    let at = g.things().location(hero(g).expect("hero")).expect("placed");
    let reach = reachable(g, at);
    let area = level_box(at.z);
    let (mut seen, mut all) = (0usize, 0usize);
    for l in area.iter() {
        if reach.contains(l) {
            all += 1;
            seen += usize::from(explored(g, l));
        }
    }
    seen as f64 / all.max(1) as f64
}

/// Every creature but the hero taken off the hero's level.
fn without_monsters(mut g: Game) -> Game {
    let h = hero(&g).expect("hero");
    let z = g.things().location(h).expect("hero placed").z;
    for c in creatures_on_level(&g, z) {
        if c != h {
            g = g.remove_thing(c).expect("removed");
        }
    }
    g
}

#[test]
fn undisturbed_auto_explore_sees_the_whole_level_in_bounded_steps() {
    let rules = Rules::new().expect("rules");
    for seed in 1..=50 {
        let mut g = quiet_game(seed, &rules);
        let t0 = g.turn();
        let mut presses = 0;
        loop {
            presses += 1;
            // Wandering monsters arrive over time; keep the level empty (undisturbed).
            let mut a = app(without_monsters(g));
            let p = press(&mut a, Input::ch('o'));
            g = game(&a).clone();
            if p.done() {
                break;
            }
            assert_ne!(
                p.end,
                Ended::Over,
                "seed {seed}: the hero died exploring alone"
            );
            // Doors and messages (an item seen) stop it; press again, as a player would.
            assert!(presses < 80, "seed {seed}: explore keeps stopping: {p:?}");
        }
        let share = explored_share(&g);
        assert!(
            share >= 0.95,
            "seed {seed}: explored {:.1} %",
            share * 100.0
        );
        let steps = g.turn() - t0;
        assert!(steps < (MAX_STEPS * presses) as u64, "seed {seed}: bounded");
    }
}

/// The hostile creatures the hero sees in `g`: in the field of view and not hidden by
/// darkness beyond the torch (`rules::light`).
fn hostiles_seen(g: &Game) -> Vec<alembic::ThingId> {
    use alembic_games::alchemy::props::{IS_CREATURE, IS_HOSTILE};
    let h = hero(g).expect("hero");
    let seen = alchemy::view::visible(g).expect("view");
    seen.iter()
        .flat_map(|l| g.things().at(l).iter().copied())
        .filter(|&t| t != h && g.is(t, &IS_CREATURE) && g.is(t, &IS_HOSTILE))
        .filter(|&t| alchemy::view::makes_out(g, &seen, t))
        .collect()
}

/// `g` with the hero's torch lit to 7 (`d² ≤ 56`), so that a monster put up to 5 cells
/// away (Chebyshev) is seen whatever the light (`rules::light`).
fn torch_7(mut g: Game) -> Game {
    let h = hero(&g).expect("hero");
    g.set_mut(h, &alchemy::props::LIGHT_RADIUS, 7)
        .expect("torch");
    g
}

/// On 50 seeds of real (monster-filled) games, auto-explore never takes a step while a
/// threatening hostile (one that noticed the hero and can reach them) is in view, refuses to
/// start with one in view, and every press ends within the step bound. Refused presses are
/// answered by waiting, as a player might.
#[test]
fn auto_explore_never_steps_with_a_threat_in_view() {
    let rules = Rules::new().expect("rules");
    let contract = Alchemy::new().expect("rules");
    let (mut refused, mut steps_checked) = (0, 0);
    for seed in 1..=50 {
        let g = alchemy::new_game(seed, &rules).expect("game");
        let mut a = app(g);
        for _ in 0..30 {
            let threat = threat_in_view(&contract, game(&a));
            let p = press_watching(&mut a, Input::ch('o'), &mut |before, _| {
                assert!(
                    !threat_in_view(&contract, before),
                    "seed {seed}: a step from {:?} with a threat in view",
                    hero_at(before)
                );
            });
            steps_checked += p.steps;
            assert!(p.steps <= MAX_STEPS, "seed {seed}: unbounded");
            let said_no = p.said("Not with");
            if threat {
                assert_eq!(p.steps, 0, "seed {seed}: started with a threat in view");
                assert!(said_no, "seed {seed}: {p:?}");
            }
            if said_no {
                refused += 1;
                press(&mut a, Input::ch('.'));
            }
            if p.done()
                || p.end == Ended::Over
                || a.ctx().rules().status(game(&a)) != alembic_session::Status::Playing
            {
                break;
            }
        }
    }
    assert!(refused > 0, "some press met a monster in view");
    assert!(steps_checked > 500, "explore walked: {steps_checked} steps");
}

/// For seeds 1 to 10: a walking hostile the level has (one `pick` accepts), moved to a seen
/// floor cell 3 to 5 steps from the hero whose ring of neighbours `enclose` then walls in;
/// checks that it cannot reach the hero, is in view, and that explore walks on regardless
/// (never "Not with … in view."). How many seeds had such a spot.
fn explore_walks_past(
    why: &str,
    pick: impl Fn(&Game, alembic::ThingId) -> bool,
    enclose: impl Fn(&mut Game, &Rules, Loc, Loc),
) -> usize {
    let rules = Rules::new().expect("rules");
    let mut checked = 0;
    for seed in 1..=10 {
        let mut g = torch_7(alchemy::new_game(seed, &rules).expect("game"));
        let h = hero(&g).expect("hero");
        let at = g.things().location(h).expect("placed");
        let Some(foe) = creatures_on_level(&g, at.z).into_iter().find(|&c| {
            c != h
                && g.is(c, &alchemy::props::IS_HOSTILE)
                && !g.is(c, &alchemy::props::IS_FLYING)
                && pick(&g, c)
        }) else {
            continue;
        };
        let seen = alchemy::view::visible(&g).expect("view");
        // A spot whose ring leaves the hero somewhere to explore (a ring across the only
        // way on would end explore for want of places, not for the monster).
        let leaves_a_way = |l: Loc| {
            let mut walled = g.clone();
            enclose(&mut walled, &rules, l, at);
            let reach = reachable(&walled, at);
            level_box(at.z)
                .iter()
                .any(|c| reach.contains(c) && !explored(&walled, c))
        };
        let Some(spot) = seen.iter().find(|&l| {
            let d = at.chebyshev(l);
            (3..=5).contains(&d)
                && !alchemy::rules::tile_blocks(&g, l)
                && l.neighbours8()
                    .all(|n| n.chebyshev(at) >= 2 && !alchemy::rules::tile_blocks(&g, n))
                && leaves_a_way(l)
        }) else {
            continue;
        };
        enclose(&mut g, &rules, spot, at);
        g = g.move_thing(foe, spot).expect("moved");
        let mut a = app(without_others(g, foe));
        let here = game(&a);
        assert!(
            !alchemy::rules::finds_way(here, foe, hero_at(here)),
            "seed {seed}: {why}"
        );
        assert!(alchemy::view::visible(here).expect("view").contains(spot));
        assert!(alchemy::view::makes_out(
            here,
            &alchemy::view::visible(here).expect("view"),
            foe
        ));
        let t0 = here.turn();
        let mut p = press(&mut a, Input::ch('o'));
        // An item coming into view stops explore with nothing more to say (the item is
        // announced): press again, as a player would.
        for _ in 0..4 {
            if game(&a).turn() - t0 > 3 || p.end != Ended::Quiet {
                break;
            }
            p = press(&mut a, Input::ch('o'));
        }
        let walked = game(&a).turn() - t0;
        assert!(
            walked > 3,
            "seed {seed}: explore stopped at once for a monster {why}: {p:?}"
        );
        assert!(!p.said("Not with"), "seed {seed}: {p:?}");
        checked += 1;
    }
    checked
}

/// A hostile in plain view across deep water, which cannot reach the hero nor be reached,
/// does not stop explore: it is announced once and explore goes on.
#[test]
fn an_unreachable_monster_in_view_does_not_stop_explore() {
    let ringed = |g: &mut Game, _: &Rules, spot: Loc, _: Loc| {
        let pool = g.library().tile_id("deep pool").expect("deep pool");
        for n in spot.neighbours8() {
            g.set_tile_mut(n, pool).expect("pool");
        }
    };
    let checked = explore_walks_past("ringed by water", |_, _| true, ringed);
    assert!(checked >= 3, "only {checked} seeds had a spot");
}

/// Issue 54, 1: a hostile in view that its own moves would never bring to the hero (here
/// across deep water, its one way out a gate it cannot open) does not stop explore, and
/// is not "in view" for travel: the threat test asks the monster's own search.
#[test]
fn a_monster_that_would_never_come_does_not_stop_explore() {
    let dull = |g: &Game, c| !g.is(c, &alchemy::props::IS_INTELLIGENT);
    // Water all round but the cell towards the hero, which gets a closed gate.
    let gated = |g: &mut Game, rules: &Rules, spot: Loc, at: Loc| {
        let gap = spot
            .neighbours8()
            .min_by_key(|n| n.chebyshev(at))
            .expect("a cell");
        let pool = g.library().tile_id("deep pool").expect("deep pool");
        for n in spot.neighbours8().filter(|&n| n != gap) {
            g.set_tile_mut(n, pool).expect("pool");
        }
        g.spawn_mut(&mut alembic::HookCtx::new(rules.hooks()), "gate", gap)
            .expect("a gate");
    };
    let checked = explore_walks_past("behind a gate it cannot open", dull, gated);
    assert!(checked >= 3, "only {checked} seeds had a spot");
}

/// Every creature of the hero's level but the hero and `keep` taken off.
fn without_others(mut g: Game, keep: alembic::ThingId) -> Game {
    let h = hero(&g).expect("hero");
    let z = g.things().location(h).expect("hero placed").z;
    for c in creatures_on_level(&g, z) {
        if c != h && c != keep {
            g = g.remove_thing(c).expect("removed");
        }
    }
    g
}

#[test]
fn explore_stops_when_a_monster_comes_into_view() {
    let rules = Rules::new().expect("rules");
    let mut stopped_for_monsters = 0;
    for seed in 1..=8 {
        let g = alchemy::new_game(seed, &rules).expect("game");
        let mut a = app(g);
        for _ in 0..20 {
            let p = press(&mut a, Input::ch('o'));
            if matches!(&p.end, Ended::Said(w) if w.ends_with("comes into view.")) {
                stopped_for_monsters += 1;
                break;
            }
            if p.done() || p.end == Ended::Over {
                break;
            }
        }
    }
    assert!(stopped_for_monsters > 0, "some level has a monster to see");
}

/// Whether the hero stands on stairs down.
fn on_stairs_down(g: &Game) -> bool {
    let at = hero_at(g);
    g.things()
        .at(at)
        .iter()
        .any(|&t| g.is(t, &alembic_games::alchemy::props::IS_STAIRS_DOWN))
}

#[test]
fn travel_to_stairs_and_running() {
    let rules = Rules::new().expect("rules");
    let mut g = quiet_game(3, &rules);
    {
        // Nothing known yet: no stairs down to travel to (the rules' refusal stands), and
        // no turn spent.
        let mut a = app(g.clone());
        let p = press(&mut a, Input::ch('>'));
        assert_eq!(p.end, Ended::Said("There are no stairs down here.".into()));
        assert_eq!(game(&a).turn(), g.turn());
    }
    // Explore the level undisturbed, then travel to the stairs down (pressing again after a
    // message, as a player would).
    let mut arrived = false;
    let mut explored_all = false;
    for _ in 0..80 {
        let mut a = app(without_monsters(g));
        if !explored_all {
            explored_all = press(&mut a, Input::ch('o')).done();
        }
        if explored_all {
            let p = press(&mut a, Input::ch('>'));
            assert_eq!(p.end, Ended::Quiet, "{p:?}");
        }
        g = game(&a).clone();
        if on_stairs_down(&g) {
            arrived = true;
            break;
        }
    }
    assert!(arrived, "travelled to the stairs down");
    assert!(on_stairs_down(&g), "standing on the stairs down");
    // Running moves several steps with one command and stops at something.
    let before = g.turn();
    let mut a = app(without_monsters(g));
    for k in "HJKLYUBN".chars() {
        let _ = press(&mut a, Input::ch(k));
    }
    assert!(game(&a).turn() > before, "some run moved");
}

/// Tab (auto-fight) walks up to the nearest monster in view and attacks it until none is
/// left in view; with nothing in view it says so and spends no turn.
#[test]
fn auto_fight_clears_the_monsters_in_view() {
    let rules = Rules::new().expect("rules");
    let mut fought = 0;
    for seed in 1..=8 {
        let g = alchemy::new_game(seed, &rules).expect("game");
        let mut a = app(g);
        let turn = game(&a).turn();
        // A game may begin with a monster in view (a lit one, or one within the torch).
        if hostiles_seen(game(&a)).is_empty() {
            let p = press(&mut a, Input::key(Key::Tab));
            assert_eq!(
                p.end,
                Ended::Said("There is nothing in view you can fight.".into())
            );
            assert_eq!(game(&a).turn(), turn);
        }
        // Explore until a monster shows up, then fight it.
        for _ in 0..20 {
            if !hostiles_seen(game(&a)).is_empty() {
                break;
            }
            if press(&mut a, Input::ch('o')).done() {
                break;
            }
        }
        let seen = hostiles_seen(game(&a));
        let Some(&foe) = seen.first() else { continue };
        for _ in 0..50 {
            let p = press(&mut a, Input::key(Key::Tab));
            if p.end == Ended::Over || p.steps == 0 || !hostiles_seen(game(&a)).contains(&foe) {
                break;
            }
        }
        let g = game(&a);
        if alchemy::view::summary(g).is_ok_and(|s| !s.outcome.is_over()) {
            assert!(
                !hostiles_seen(g).contains(&foe),
                "seed {seed}: the first foe is still in view"
            );
            fought += 1;
        }
    }
    assert!(fought >= 3, "fights won: {fought}");
}

/// Issue 54, 5: one `Tab` settles an ordinary fight: a rat put a few steps from a hero at
/// full health is walked to and fought until it dies, in one journey; with nothing in view
/// it says so and takes no turn; a hero badly hurt stops the fight.
#[test]
fn one_press_settles_an_ordinary_fight() {
    let rules = Rules::new().expect("rules");
    let mut won = 0;
    for seed in 1..=10 {
        let mut g = torch_7(quiet_game(seed, &rules));
        let h = hero(&g).expect("hero");
        let at = g.things().location(h).expect("placed");
        let mut a = app(g.clone());
        assert_eq!(
            press(&mut a, Input::key(Key::Tab)).end,
            Ended::Said("There is nothing in view you can fight.".to_owned())
        );
        let seen = alchemy::view::visible(&g).expect("view");
        let Some(spot) = seen.iter().find(|&l| {
            (3..=4).contains(&at.chebyshev(l))
                && !alchemy::rules::tile_blocks(&g, l)
                && g.things().at(l).is_empty()
        }) else {
            continue;
        };
        let rat = g
            .spawn_mut(&mut alembic::HookCtx::new(rules.hooks()), "rat", spot)
            .expect("a rat");
        let mut a = app(g.clone());
        let p = press(&mut a, Input::key(Key::Tab));
        let after = game(&a);
        assert!(
            after.things().location(rat).is_err(),
            "seed {seed}: the rat lives ({p:?})"
        );
        assert_eq!(p.end, Ended::Quiet, "seed {seed}");
        assert!(after.turn() >= 1, "it fought the rat");
        // Badly hurt before the first blow: stopped at the first loss.
        g.set_mut(h, &HPS, 2).expect("hurt");
        let mut a = app(g);
        let p = press(&mut a, Input::key(Key::Tab));
        let after = game(&a);
        let hp = after.query(h, &HPS).unwrap_or(0);
        match &p.end {
            // The rat died before the hero fell below where they started.
            Ended::Quiet => {
                assert!(
                    after.things().location(rat).is_err() && hp >= 2,
                    "seed {seed}: {hp}"
                )
            }
            Ended::Over => {}
            Ended::Said(w) => assert!(
                w.starts_with("You stop fighting: you are badly hurt") && hp < 2,
                "seed {seed}: {w} at {hp} hp"
            ),
        }
        won += 1;
    }
    assert!(won >= 3, "only {won} fights");
}

/// `G` opens a travel cursor; Tab cycles it to the known stairs up (the way out, named in
/// the cursor's line) and Enter travels there (pressed again after a stop on the way),
/// ending where `<`'s own travel ends.
#[test]
fn g_travels_to_a_place_picked_with_the_cursor() {
    let rules = Rules::new().expect("rules");
    let mut tried = 0;
    for seed in 1..=8 {
        // Explore first (undisturbed), so the stairs up are known and a walk away.
        let mut g = quiet_game(seed, &rules);
        for _ in 0..3 {
            let mut a = app(without_monsters(g));
            let _ = press(&mut a, Input::ch('o'));
            g = game(&a).clone();
        }
        let g = without_monsters(g);
        // Where travelling to the stairs up by `<` ends, if it gets there.
        let mut by_key = app(g.clone());
        let up = |g: &Game| alchemy::view::stairs_at(g, hero_at(g), alchemy::view::Stairs::Up);
        for _ in 0..6 {
            if up(game(&by_key)) {
                break;
            }
            let p = press(&mut by_key, Input::ch('<'));
            if p.end != Ended::Quiet {
                break;
            }
        }
        if !up(game(&by_key)) {
            continue;
        }
        let want_at = hero_at(game(&by_key));
        if want_at == hero_at(&g) {
            continue;
        }
        tried += 1;
        let mut a = app(g.clone());
        let mut opened = false;
        for _ in 0..6 {
            if hero_at(game(&a)) == want_at {
                break;
            }
            let _ = a.handle_input(Input::ch('G'));
            let mut f = Frame::new(100, 30);
            a.render(&mut f);
            opened |= f.contains_text("Travel to");
            // Tab until the cursor's line names the way out.
            for _ in 0..40 {
                let mut f = Frame::new(100, 30);
                a.render(&mut f);
                if f.contains_text("way out of the dungeon") {
                    break;
                }
                let _ = a.handle_input(Input::key(Key::Tab));
            }
            let _ = press(&mut a, Input::key(Key::Enter));
        }
        assert!(opened, "the travel cursor opened");
        let after = game(&a);
        assert_eq!(
            hero_at(after),
            want_at,
            "seed {seed}: G, Tab to the way out, Enter ends where < travel ends"
        );
        assert!(after.turn() > g.turn(), "travel took turns");
    }
    assert!(tried >= 2, "seeds with known, reachable stairs up: {tried}");
}

/// With autopickup turned on (`A`), explore also walks to the items it sees and picks them
/// up; with it off (the default) it leaves them where they lie.
#[test]
fn explore_picks_up_items_only_when_asked() {
    let rules = Rules::new().expect("rules");
    let mut gained = 0;
    for seed in 1..=4 {
        let mut carried = Vec::new();
        for pick in [false, true] {
            let mut g = quiet_game(seed, &rules);
            for _ in 0..80 {
                let mut a = app(without_monsters(g));
                if pick {
                    let _ = a.handle_input(Input::ch('A'));
                }
                let p = press(&mut a, Input::ch('o'));
                g = game(&a).clone();
                if p.done() || p.end == Ended::Over {
                    break;
                }
            }
            let h = hero(&g).expect("hero");
            carried.push(g.things().contents(h).map_or(0, <[_]>::len));
        }
        assert!(carried[1] >= carried[0], "seed {seed}: {carried:?}");
        gained += carried[1] - carried[0];
    }
    assert!(gained > 0, "autopickup picked something up");
}

/// On the play screen, explore walks one step per tick, so the player sees it and any key
/// stops it: an impatient player's next key stops it after the first step ("You stop."),
/// while a patient one ends where explore ends.
#[test]
fn a_key_stops_explore_on_the_play_screen() {
    use alembic_ui::{TestFrontend, run};
    let rules = Rules::new().expect("rules");
    let g = quiet_game(4, &rules);
    // All at once: ticked to its end.
    let mut direct = app(g.clone());
    let _ = press(&mut direct, Input::ch('o'));
    let walked = game(&direct).turn() - g.turn();
    assert!(walked > 3, "explore walks a while: {walked}");
    // Patient: the screen ticks until explore ends.
    let mut patient = app(g.clone());
    let mut fe = TestFrontend::new(100, 30, vec![Input::ch('o'), Input::ch('m')]);
    let _ = run(&mut fe, &mut patient);
    assert_eq!(
        game(&patient).state_hash(),
        game(&direct).state_hash(),
        "step by step ends where all at once ends"
    );
    assert!(fe.frames().len() > walked as usize, "a frame per step");
    // Impatient: the next key stops it after one step.
    let mut impatient = app(g.clone());
    let mut fe = TestFrontend::new(100, 30, vec![Input::ch('o'), Input::ch('.')]).impatient();
    let _ = run(&mut fe, &mut impatient);
    assert_eq!(game(&impatient).turn(), g.turn() + 1);
    assert!(
        fe.last_frame()
            .is_some_and(|f| f.contains_text("You stop.")),
        "says why it stopped"
    );
}

/// Rest (`Z`): from low hit points one key rests to full, turn by turn on the play screen,
/// and says so; a key stops it; at full health it refuses and spends no turn.
#[test]
fn one_key_rests_to_full_and_a_key_stops_it() {
    use alembic_games::alchemy::props::HPS_MAX;
    use alembic_ui::{TestFrontend, run};
    let rules = Rules::new().expect("rules");
    let mut g = quiet_game(4, &rules);
    let h = hero(&g).expect("hero");
    let max = g.query(h, &HPS_MAX).expect("max");
    g.set_mut(h, &HPS, 2).expect("hurt");
    let mut a = app(g.clone());
    let mut fe = TestFrontend::new(100, 30, vec![Input::ch('Z'), Input::ch('m')]);
    let _ = run(&mut fe, &mut a);
    let after = game(&a).clone();
    assert_eq!(after.query(h, &HPS).expect("hp"), max, "rested to full");
    assert!(after.turn() > g.turn() + 10, "it took turns");
    assert!(
        fe.frames()
            .iter()
            .any(|f| f.contains_text("You feel rested.")),
        "says why it stopped"
    );
    // At full health: nothing to rest for, no turn.
    let mut full = app(after.clone());
    let mut fe = TestFrontend::new(100, 30, vec![Input::ch('Z')]);
    let _ = run(&mut fe, &mut full);
    assert_eq!(game(&full).turn(), after.turn());
    assert!(fe.frames()[1].contains_text("You are not hurt"));
    // Impatient: the next key stops the rest after one turn.
    let mut a = app(g.clone());
    let mut fe = TestFrontend::new(100, 30, vec![Input::ch('Z'), Input::ch('m')]).impatient();
    let _ = run(&mut fe, &mut a);
    assert_eq!(game(&a).turn(), g.turn() + 1);
    // Search: five turns, and an honest word.
    let mut a = app(after.clone());
    let mut fe = TestFrontend::new(100, 30, vec![Input::ch('s'), Input::ch('m')]);
    let _ = run(&mut fe, &mut a);
    assert_eq!(game(&a).turn(), after.turn() + SEARCH_TURNS as u64);
    assert!(
        fe.frames()
            .iter()
            .any(|f| f.contains_text("find nothing hidden"))
    );
}

/// A monster coming into view stops a rest, and says which.
#[test]
fn a_monster_coming_into_view_stops_rest() {
    use alembic_games::alchemy::props::LAST_SEEN;
    let rules = Rules::new().expect("rules");
    let mut stopped = 0;
    for seed in 1..=10 {
        let mut g = alchemy::new_game(seed, &rules).expect("game");
        let h = hero(&g).expect("hero");
        let at = g.things().location(h).expect("placed");
        let seen = alchemy::view::visible(&g).expect("view");
        // Every hostile on the level out of view hunts the hero; the hero is badly hurt.
        let foes: Vec<_> = creatures_on_level(&g, at.z)
            .into_iter()
            .filter(|&c| c != h && g.is(c, &alchemy::props::IS_HOSTILE))
            .filter(|&c| g.things().location(c).is_ok_and(|l| !seen.contains(l)))
            .collect();
        if foes.is_empty() {
            continue;
        }
        for &f in &foes {
            g.set_mut(f, &LAST_SEEN, at).expect("hunts");
        }
        g.set_mut(h, &HPS, 1).expect("hurt");
        let mut a = app(g.clone());
        let p = press(&mut a, Input::ch('Z'));
        let after = game(&a);
        if let Ended::Said(why) = &p.end
            && why.ends_with("comes into view.")
        {
            let in_view = alchemy::view::visible(after).expect("view");
            assert!(
                foes.iter().any(|&f| after
                    .things()
                    .location(f)
                    .is_ok_and(|l| in_view.contains(l))),
                "seed {seed}: {why} with no foe in view"
            );
            assert!(
                after.query(h, &HPS).expect("hp")
                    < after.query(h, &alchemy::props::HPS_MAX).expect("max")
            );
            stopped += 1;
        }
    }
    assert!(
        stopped >= 3,
        "only {stopped} rests were stopped by a monster"
    );
}

/// Travel reaches any remembered floor the hero could walk to: neither a monster out of
/// sight standing there nor a never-lit cell between remembered ground (the dark stream
/// cell of seed 2) is "no way there"; travel walks until it sees what is there.
#[test]
fn travel_goes_to_any_remembered_reachable_floor() {
    let rules = Rules::new().expect("rules");
    let mut tried = 0;
    for seed in 1..=6 {
        let g = quiet_game(seed, &rules);
        let mut a = app(g);
        for _ in 0..6 {
            let _ = press(&mut a, Input::ch('o'));
        }
        let explored_game = game(&a).clone();
        let seen = alchemy::view::visible(&explored_game).expect("view");
        let at = hero_at(&explored_game);
        let targets: Vec<Loc> = level_box(at.z)
            .iter()
            .filter(|&l| {
                explored(&explored_game, l)
                    && !seen.contains(l)
                    && !alchemy::rules::tile_blocks(&explored_game, l)
                    && !alchemy::rules::tile_dangerous(&explored_game, l)
                    && explored_game.things().at(l).is_empty()
            })
            .step_by(37)
            .take(4)
            .collect();
        for target in targets {
            // No other creature (one that wandered in while exploring would stop travel
            // setting out), and a rat, out of sight, on the very place.
            let mut g = without_monsters(explored_game.clone());
            g.spawn_mut(&mut alembic::HookCtx::new(rules.hooks()), "rat", target)
                .expect("a rat");
            let mut a = app(g);
            let p = travel_to(&mut a, target);
            assert_ne!(
                p.end,
                Ended::Said("You know no way there.".into()),
                "seed {seed}: {target:?}"
            );
            assert!(p.steps > 0, "seed {seed}: {target:?}: {p:?}");
            tried += 1;
        }
    }
    assert!(tried > 10, "tried {tried}");
}

/// In the travel cursor (`G`), Tab cycles through the features the hero remembers out of
/// sight (stairs, doors…), naming each in the cursor's line; Enter travels there.
#[test]
fn g_tab_cycles_through_remembered_features() {
    use alembic_ui::{TestFrontend, run};
    let rules = Rules::new().expect("rules");
    let g = quiet_game(4, &rules);
    let mut a = app(g);
    for _ in 0..8 {
        let _ = press(&mut a, Input::ch('o'));
    }
    let g = game(&a).clone();
    let mut keys = vec![Input::ch('G')];
    keys.extend((0..40).map(|_| Input::key(Key::Tab)));
    keys.push(Input::key(Key::Esc));
    let mut a = app(g);
    let mut fe = TestFrontend::new(100, 30, keys);
    let _ = run(&mut fe, &mut a);
    let named: Vec<String> = fe
        .frames()
        .iter()
        .filter_map(|f| {
            let t = f.to_text();
            let i = t.find("You remember ")?;
            Some(t[i..].lines().next().unwrap_or_default().trim().to_owned())
        })
        .collect();
    assert!(
        named.iter().any(|n| !n.contains("floor")),
        "Tab named no remembered feature: {named:?}"
    );
    assert!(
        fe.frames()[1].contains_text("Tab for the next"),
        "{}",
        fe.frames()[1].to_text()
    );
}

/// Issue 54, 6: items the hero was told of stop a journey once: travel that walks over
/// them again (other things said in between) goes on.
#[test]
fn travel_stops_once_for_the_same_items() {
    let rules = Rules::new().expect("rules");
    let mut checked = 0;
    for seed in 1..=30 {
        let mut g = quiet_game(seed, &rules);
        let at = hero_at(&g);
        let seen = alchemy::view::visible(&g).expect("view");
        let step = |d: alembic::Dir, k: i32| (1..=k).fold(at, |l, _| l + d);
        let clear = |g: &Game, l: Loc| {
            seen.contains(l) && !alchemy::rules::tile_blocks(g, l) && g.things().at(l).is_empty()
        };
        let Some(d) = alembic::Dir::ALL
            .into_iter()
            .find(|&d| (1..=3).all(|k| clear(&g, step(d, k))))
        else {
            continue;
        };
        let (pile, beyond) = (step(d, 2), step(d, 3));
        g.spawn_mut(&mut alembic::HookCtx::new(rules.hooks()), "dagger", pile)
            .expect("a dagger");
        let mut a = app(g);
        // The first time over it: the step says "You see a dagger." and travel stops there.
        let first = travel_to(&mut a, beyond);
        let here = |a: &AlchemyUi| hero_at(game(a));
        if here(&a) == beyond {
            // A diagonal way round the pile is as short: this seed does not cross it.
            assert_eq!(first.end, Ended::Quiet, "seed {seed}");
            continue;
        }
        if here(&a) != pile || first.end != Ended::Quiet {
            // Something else came into view on the way (an item in a lit room): this seed
            // does not reach the pile in one journey.
            continue;
        }
        let on = travel_to(&mut a, beyond);
        assert_eq!((on.end, here(&a)), (Ended::Quiet, beyond), "seed {seed}");
        // Something else said (`Z` at full health says why not).
        let _ = press(&mut a, Input::ch('Z'));
        // Back over it (to the cell before it: the hero's first cell may be the stairs,
        // which say so): said again, but no stop.
        let back = travel_to(&mut a, step(d, 1));
        let log: Vec<&str> = a.ctx().messages().collect();
        assert_eq!(back.end, Ended::Quiet, "seed {seed}: {log:#?}");
        assert_eq!(here(&a), step(d, 1), "seed {seed}: {log:#?}");
        // Counted where the way back crossed the pile (a diagonal way round is as short).
        if log
            .iter()
            .filter(|l| l.contains("You see a dagger."))
            .count()
            == 2
        {
            checked += 1;
        }
    }
    assert!(checked >= 3, "only {checked} seeds crossed the pile twice");
}

/// Issue 54, item 1: play never freezes on a monster that can come but that the hero has no
/// known way to. A player presses `o`, and `Tab` when `o` will not go on; on seeds 1–8 the
/// first level is explored to its end without a press that moves nothing. (Seed 5 froze at
/// turn 137 on a bat: `o` answered "Not with a bat in view." and `Tab` "You see no way to a
/// bat."; `Tab` now waits for it.)
#[test]
fn explore_and_tab_never_freeze_on_a_monster_that_can_come() {
    let rules = Rules::new().expect("rules");
    for seed in 1..=8 {
        let g = alchemy::new_game(seed, &rules).expect("game");
        let mut a = app(g);
        let mut done = false;
        for press_no in 0..150 {
            let turn = game(&a).turn();
            let p = press(&mut a, Input::ch('o'));
            if p.done() {
                done = true;
                break;
            }
            if game(&a).turn() == turn {
                let fought = press(&mut a, Input::key(Key::Tab));
                let g = game(&a);
                if alchemy::view::summary(g).is_ok_and(|s| s.outcome.is_over()) {
                    done = true;
                    break;
                }
                assert!(
                    g.turn() > turn,
                    "seed {seed}, press {press_no}, turn {turn}: frozen ({p:?}, then {fought:?})"
                );
            }
        }
        assert!(
            done,
            "seed {seed}: the first level not explored in 150 presses"
        );
    }
}
