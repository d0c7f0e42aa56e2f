import Architecture

/// An evening in the chat room: sign in, type and post (some posts too long, retried or
/// dropped), peers typing and answering, threads opened and closed, settings changed with a
/// password typed, messages deleted or kept.
@MainActor
func playChatRoomSession(_ driver: LongSessionDriver<ChatRoom.State, ChatRoom.Action>) async {
  let peers = ["alice", "bob", "chen"]
  let phrases = [
    "hi all", "the build is green", "who has the keys", "lunch at noon?",
    "this message is far too long for the server to take at all", "ok", "see the thread",
    "shipping it now", "can someone review", "back in five",
  ]
  await driver.send(.peerTyping("alice"))
  await driver.send(.loggedIn(token: LongSession.chatRoomToken))
  for round in 0..<24 {
    // Type a message a few letters at a time; sometimes pause long enough to clear the
    // indicator, sometimes give up and clear the draft.
    let phrase = phrases[driver.next(0..<phrases.count)]
    var typed = ""
    for chunk in phrase.chunks(of: 1 + driver.next(0..<5)) {
      typed += chunk
      await driver.send(.binding(.set(\.$draft, typed)))
      if driver.chance(15) { await driver.advance(by: .seconds(2)) }
    }
    if driver.chance(10) {
      await driver.send(.binding(.set(\.$draft, "")))
      await driver.advance(by: .seconds(2))
    } else {
      await driver.send(.sendButtonTapped)
      if driver.state.alert != nil, let id = driver.state.messages.last?.id {
        await driver.send(driver.chance(50) ? .alert(.presented(.retry(id))) : .alert(.dismiss))
        if driver.state.alert != nil { await driver.send(.alert(.dismiss)) }
      }
    }

    // Peers type; most answer, some stop and their indicator expires.
    let peer = peers[driver.next(0..<peers.count)]
    await driver.send(.peerTyping(peer))
    if driver.chance(70) {
      await driver.advance(by: .seconds(1))
      await driver.send(
        .messageReceived(author: peer, text: phrases[driver.next(0..<phrases.count)]))
    } else {
      await driver.advance(by: .seconds(5))
    }

    if round % 4 == 3 { await openThread(driver) }
    if round % 6 == 5 { await changeSettings(driver, round: round) }
    if round % 5 == 2, let message = driver.state.messages.first {
      await driver.send(.deleteButtonTapped(message.id))
      await driver.send(
        driver.chance(60) ? .alert(.presented(.confirmDelete(message.id))) : .alert(.dismiss))
    }
  }
  await driver.advance(by: .seconds(5))
}

@MainActor
private func openThread(_ driver: LongSessionDriver<ChatRoom.State, ChatRoom.Action>) async {
  guard !driver.state.messages.isEmpty else { return }
  let message = driver.state.messages[driver.next(0..<driver.state.messages.count)]
  await driver.send(.threadTapped(message.id))
  guard let id = driver.state.path.ids.last else { return }
  for reply in ["+1", "agreed, go ahead", "on it"].prefix(1 + driver.next(0..<3)) {
    var typed = ""
    for chunk in reply.chunks(of: 3) {
      typed += chunk
      await driver.send(.path(.element(id: id, action: .binding(.set(\.$draft, typed)))))
    }
    await driver.send(.path(.element(id: id, action: .replyButtonTapped)))
  }
  if driver.chance(30), let reply = driver.state.path[id: id]?.replies.first {
    await driver.send(.path(.element(id: id, action: .replyDeleted(reply.id))))
  }
  // Back by the close button (the thread dismisses itself) or by the back gesture.
  if driver.chance(50) {
    await driver.send(.path(.element(id: id, action: .closeButtonTapped)))
  } else {
    await driver.send(.path(.popFrom(id: id)))
  }
}

@MainActor
private func changeSettings(
  _ driver: LongSessionDriver<ChatRoom.State, ChatRoom.Action>, round: Int
) async {
  await driver.send(.settingsButtonTapped)
  var password = ""
  for letter in "hunter\(round)" {
    password.append(letter)
    await driver.send(.settings(.presented(.binding(.set(\.$password, password)))))
  }
  await driver.send(.settings(.presented(.binding(.set(\.$displayName, "me\(round)")))))
  await driver.send(
    .settings(.presented(.binding(.set(\.$notificationsEnabled, driver.chance(50))))))
  let saves = driver.chance(70)
  await driver.send(.settings(.presented(saves ? .saveButtonTapped : .cancelButtonTapped)))
}

extension String {
  /// The string in pieces of `size` characters, the last maybe shorter.
  func chunks(of size: Int) -> [String] {
    var pieces: [String] = []
    var rest = Substring(self)
    while !rest.isEmpty {
      pieces.append(String(rest.prefix(size)))
      rest = rest.dropFirst(size)
    }
    return pieces
  }
}
