//! `pbrain-mnk`: mnk as a Gomocup brain. Managers (Piskvork, the Gomocup judge, c-gomoku-cli,
//! Yixin board) recognise the protocol by the `pbrain-` prefix of the executable's name.

fn main() -> std::io::Result<()> {
    mnk_gomocup::run_stdio()
}
