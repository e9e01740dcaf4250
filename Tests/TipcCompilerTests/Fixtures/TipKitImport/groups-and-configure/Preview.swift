import TipKit

func configureForPreviews() throws {
    try Tips.configure([.displayFrequency(60 * 60 * 12)])
}
