fn main() -> std::process::ExitCode {
    tcgsim::cli::main()
}
