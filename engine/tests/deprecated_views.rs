//! The 0.2 methods of `Game` that moved into views in 0.3 still build, deprecated, and answer
//! what the views answer: code written against 0.2 keeps working for one minor version.
#![allow(deprecated)]

use alembic::hook::ON_ACTION;
use alembic::layer::Layer;
use alembic::library::IS_CONTAINER;
use alembic::props::Hook;
use alembic::{Game, HookCtx, Hooks, Loc, LocBox, Prop, Props, Thing};

const CREATURE: Prop<bool> = Prop::with_default("creature", false);
const SEEN: Layer<bool> = Layer::new("seen");

fn world() -> (Game, alembic::ThingId, alembic::ThingId) {
    let mut g = Game::new(5);
    g.index_flag_mut(&CREATURE);
    let bat = Thing::new(
        Props::new()
            .with(&CREATURE, true)
            .with(&IS_CONTAINER, true)
            .with(&ON_ACTION, Hook::new("flap")),
    );
    let bat = g.add_thing_mut(Loc::new(1, 1, 0), bat).expect("bat");
    let coin = g
        .add_thing_mut(bat, Thing::new(Props::new()))
        .expect("coin");
    g.set_layer_mut(&SEEN, Loc::new(1, 1, 0), true);
    (g, bat, coin)
}

#[test]
fn the_old_reads_answer_what_the_views_answer() {
    let (g, bat, coin) = world();
    let at = Loc::new(1, 1, 0);
    assert_eq!(g.get_thing(coin), g.things().get(coin));
    assert_eq!(g.contains(bat), g.things().contains(bat));
    assert_eq!(g.thing_count(), g.things().count());
    assert_eq!(g.all_things().count(), g.things().iter().count());
    assert_eq!(g.next_id(), g.things().next_id());
    assert_eq!(g.things_at(at), g.things().at(at));
    assert_eq!(
        g.cell_view().things_at(at),
        g.things().cursor().things_at(at)
    );
    let area = LocBox::rect(0, 0, 4, 4, 0);
    assert_eq!(g.things_in_box(area), g.things().in_box(area));
    assert_eq!(g.things_on_level(0), g.things().on_level(0));
    assert_eq!(g.ids_on_level(0), g.things().ids_on_level(0));
    assert_eq!(g.contents(bat), g.things().contents(bat));
    assert_eq!(g.place(coin), g.things().place(coin));
    assert_eq!(g.location(coin), g.things().location(coin));
    assert_eq!(g.outermost(coin), g.things().outermost(coin));
    assert_eq!(g.is_indexed(&CREATURE), g.indexes().is_indexed(&CREATURE));
    assert_eq!(g.things_with(&CREATURE), g.indexes().things_with(&CREATURE));
    assert_eq!(
        g.things_with_on_level(&CREATURE, 0),
        g.indexes().things_with_on_level(&CREATURE, 0)
    );
    assert_eq!(g.layer_get(&SEEN, at), g.layers().at(&SEEN, at));
    assert_eq!(g.layer(&SEEN).get(at), g.layers().get(&SEEN).get(at));
    assert!(g.layer_names().eq(g.layers().names()));
    assert_eq!(g.takes_turns(bat), g.schedule().takes_turns(bat));
}

#[test]
fn the_old_writes_make_the_games_the_views_make() {
    let (mut old, bat, _) = world();
    let mut new = old.clone();
    old.schedule_mut(bat, 3).expect("schedule");
    new.scheduler().add(bat, 3).expect("schedule");
    old.set_level_mut(LocBox::rect(0, 0, 8, 8, 0));
    new.levels_mut().set(LocBox::rect(0, 0, 8, 8, 0));
    old.link_stairs_both_mut(Loc::new(7, 7, 0), Loc::new(0, 0, 1));
    new.levels_mut()
        .link_stairs_both(Loc::new(7, 7, 0), Loc::new(0, 0, 1));
    old.set_awake_levels_mut([0]).expect("awake");
    new.scheduler().set_awake_levels([0]).expect("awake");
    assert_eq!(old.state_hash(), new.state_hash());
    assert_eq!(old.clock(), new.schedule().clock());
    assert_eq!(old.next_actor(), new.schedule().next_actor());
    assert!(old.actors().eq(new.schedule().actors()));
    assert_eq!(old.is_scheduled(bat), new.schedule().is_scheduled(bat));
    assert_eq!(
        old.action_delay(bat, 100),
        new.schedule().action_delay(bat, 100)
    );
    assert_eq!(old.awake_levels(), new.schedule().awake_levels());
    assert_eq!(old.level(0), new.levels().get(0));
    assert_eq!(
        old.stairs_at(Loc::new(7, 7, 0)),
        new.levels().stairs_at(Loc::new(7, 7, 0))
    );
    assert!(old.stair_links().eq(new.levels().stair_links()));
    let hooks = Hooks::new();
    assert_eq!(old.check_hooks(&hooks), hooks.check(&new));
    let (mut a, mut b) = (old.clone(), new.clone());
    let stop = |_: &Game, _| false;
    let r1 = a.advance_until_mut(&mut HookCtx::new(&hooks), 5, stop);
    let r2 = b
        .scheduler()
        .advance_until(&mut HookCtx::new(&hooks), 5, stop);
    assert_eq!(r1, r2, "an unregistered hook is refused the same way");
    old.unschedule_mut(bat);
    new.scheduler().remove(bat);
    assert_eq!(old.state_hash(), new.state_hash());
    old.check_invariants().expect("invariants");
}
