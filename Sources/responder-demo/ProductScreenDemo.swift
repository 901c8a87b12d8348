/// The product-detail screen scenario (window layer): taps through hit testing into the chain.
enum ProductScreenDemo {
    @MainActor
    static func run() async {
        print("== Product screen ==")
    }
}
