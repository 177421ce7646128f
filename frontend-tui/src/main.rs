//! Frontend binary (work in progress).

fn main() {
    println!("The game is not built yet; see the README.");
}
