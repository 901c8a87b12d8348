extension EventSystem {
    /// Whether the post `id` is still being delivered: queued posts aside, it still counts in
    /// ``outstandingPosts``, though its outcome may already be in the observation streams (they
    /// receive it just before its ticket does). For the test kit's store, which waits for a post
    /// whose ending it recorded to stop counting before it checks what is outstanding.
    package func isDelivering(_ id: EventID) -> Bool {
        postOffice.isDelivering(id)
    }
}
