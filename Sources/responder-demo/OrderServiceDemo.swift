/// The order-processing service scenario (core): line items → order → session → service root.
enum OrderServiceDemo {
    static func run() async {
        print("== Order service ==")
    }
}
